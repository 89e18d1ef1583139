/**
 * The server build keeps class and function names. Errors from oauth4webapi and jose name
 * themselves after their class (`this.name = this.constructor.name`): minified without
 * `keepNames`, the demo's log showed them as `q: ...` or `ca: ...` instead of
 * `OperationProcessingError: ...`. Reads the built server bundle (the tests run against the build).
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { expect, it } from "vitest"

const server = fileURLToPath(new URL("../server/", import.meta.url))

it("the built server bundle keeps the names of the error classes that name themselves after their class", () => {
  const bundle = readdirSync(server).filter((f) => f.endsWith(".js")).map((f) => readFileSync(join(server, f), "utf8")).join("\n")
  // Sanity: the bundle holds those classes (their self-naming constructors).
  expect(bundle).toContain("this.name=this.constructor.name")
  for (const name of ["OperationProcessingError", "ResponseBodyError", "AuthorizationResponseError", "JOSEError"]) expect(bundle).toContain(`"${name}"`)
})
