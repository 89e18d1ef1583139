/**
 * Which discovery documents may name a tenant-templated issuer, and how an ID token picks its issuer.
 */
import { describe, expect, it } from "vitest"
import type { AuthorizationServer } from "oauth4webapi"
import { acceptTenantTemplate, forIdToken, withTemplate } from "../../../src/capabilities/oauth/tenant-issuer.js"

const TEMPLATE = "https://login.example/{tenantid}/v2.0"
const doc = (issuer: string) => Response.json({ issuer, jwks_uri: "https://login.example/keys" })
const token = (claims: object) => `e30.${btoa(JSON.stringify(claims)).replaceAll("=", "")}.sig`

describe("tenant issuer templates", () => {
  it("accepts the template only for a configured issuer that fills it with one tenant segment", async () => {
    const ok = await acceptTenantTemplate(new URL("https://login.example/common/v2.0"), doc(TEMPLATE))
    expect(ok.template).toBe(TEMPLATE)
    expect((await ok.response.json()).issuer).toBe("https://login.example/common/v2.0")
    for (const configured of ["https://login.example/", "https://login.example/a/b/v2.0", "https://other.example/common/v2.0"]) {
      const refused = await acceptTenantTemplate(new URL(configured), doc(TEMPLATE))
      expect(refused.template).toBeUndefined()
      expect((await refused.response.json()).issuer).toBe(TEMPLATE)
    }
  })

  it("fills the template with the token's tid, and keeps the unmatchable template without a usable tid", () => {
    const server = withTemplate({ issuer: "https://login.example/common/v2.0" } as AuthorizationServer, TEMPLATE)
    expect(forIdToken(server, token({ tid: "t-1" })).issuer).toBe("https://login.example/t-1/v2.0")
    expect(forIdToken(server, token({ tid: "../evil" })).issuer).toBe(TEMPLATE)
    expect(forIdToken(server, token({})).issuer).toBe(TEMPLATE)
    expect(forIdToken({ issuer: "https://plain.example" } as AuthorizationServer, token({ tid: "x" })).issuer).toBe("https://plain.example")
  })
})
