/** What the demo's README says of its own set-up, checked against the code it describes. */
import { readFileSync } from "node:fs"
import { expect, it } from "vitest"
import { IDP_ACCESS_TOKEN_TTL } from "../src/server/idp.js"

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8")

it("the Demo IdP's access-token lifetime in the README is the one the IdP is configured with", () => {
  const stated = /the IdP's access tokens live (\d+) (seconds|minutes)/.exec(readme)
  expect(stated, "the README states the lifetime").not.toBeNull()
  const seconds = Number(stated![1]) * (stated![2] === "minutes" ? 60 : 1)
  expect(seconds).toBe(IDP_ACCESS_TOKEN_TTL)
})
