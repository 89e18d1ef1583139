/**
 * The published shape: every subpath of the exports map resolves (through the package's own name,
 * so through `exports` and the built dist) to a factory, with `types` listed first.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { exports: Record<string, unknown> }
const presets = ["apple", "auth0", "discord", "facebook", "github", "gitlab", "google", "keycloak", "linkedin", "microsoft-entra-id", "oidc", "okta", "slack", "twitch"]

describe("package exports", () => {
  it("lists types first for the root and every subpath, plus ./package.json", () => {
    for (const [key, value] of Object.entries(pkg.exports)) {
      if (key === "./package.json") continue
      expect(Object.keys(value as object)[0], key).toBe("types")
    }
    expect(Object.keys(pkg.exports)).toEqual(expect.arrayContaining([".", "./package.json", "./credentials", "./nodemailer", ...presets.map((p) => `./${p}`)]))
  })

  it.each(presets)("@authlib/providers/%s default-exports a preset with that id", async (id) => {
    const mod = (await import(`@authlib/providers/${id}`)) as { default: (o?: object) => { id: string } }
    const config = id === "microsoft-entra-id" ? mod.default({ tenantId: "common" }) : mod.default()
    expect(config.id).toBe(id)
  })

  it("exports Credentials, Nodemailer with its helpers, and the errors from the root", async () => {
    const credentials = await import("@authlib/providers/credentials")
    expect(credentials.default({ authorize: () => null }).type).toBe("credentials")
    const nodemailer = await import("@authlib/providers/nodemailer")
    expect(typeof nodemailer.html).toBe("function")
    expect(typeof nodemailer.text).toBe("function")
    expect(nodemailer.normalizeEmailAddress(" A@B.example ")).toBe("a@b.example")
    const root = await import("@authlib/providers")
    expect(new root.EmailSignInError("x").type).toBe("EmailSignInError")
    expect(root.EmailSignInError).toBe(nodemailer.EmailSignInError)
  })

  it("re-exports core's e-mail helpers and errors themselves, not copies", async () => {
    const core = await import("@authlib/core")
    const root = await import("@authlib/providers")
    const nodemailer = await import("@authlib/providers/nodemailer")
    for (const mod of [root, nodemailer]) {
      expect(mod.EmailSignInError).toBe(core.EmailSignInError)
      expect(mod.InvalidEmailAddress).toBe(core.InvalidEmailAddress)
    }
    expect(nodemailer.normalizeEmailAddress).toBe(core.normalizeEmailAddress)
    expect([nodemailer.MAX_ADDRESS_LENGTH, nodemailer.MAX_LOCAL_PART_LENGTH]).toStrictEqual([core.MAX_ADDRESS_LENGTH, core.MAX_LOCAL_PART_LENGTH])
    expect(nodemailer.DEFAULT_MAX_AGE).toBe(core.DEFAULT_EMAIL_MAX_AGE)
    const refused = (() => {
      try {
        nodemailer.default({ server: "smtp://127.0.0.1:2525" }).normalizeIdentifier!("a@b@example.com")
      } catch (err) {
        return err
      }
    })()
    expect(refused).toBeInstanceOf(core.InvalidEmailAddress)
    expect(refused).toMatchObject({ type: "InvalidEmailAddress", code: "EMAIL_AT_COUNT" })
  })
})
