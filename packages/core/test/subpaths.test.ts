/**
 * The Auth.js-shaped subpaths `@authlib/core/errors`, `/adapters` and `/types`: mapped in the
 * exports map to their built files, the same objects as the root's, and complete: every error
 * class the root exports is on `/errors` (a class added to the root alone fails here).
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, expectTypeOf, it } from "vitest"
import * as root from "../src/index.js"
import * as errors from "../src/errors.js"
import * as adapters from "../src/adapters.js"
import type * as types from "../src/types.js"

const pkg = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8")) as { exports: Record<string, { types: string; default: string }> }

describe("Auth.js-shaped subpaths", () => {
  it.each(["errors", "adapters", "types"])("./%s maps to dist/%s.{js,d.ts}", (name) => {
    expect(pkg.exports[`./${name}`]).toEqual({ types: `./dist/${name}.d.ts`, default: `./dist/${name}.js` })
  })

  it("/errors has every error class of the root, the very same objects, and the catalogue", () => {
    const classes = Object.entries(root).filter(([, value]) => typeof value === "function" && (value === root.AuthError || value.prototype instanceof root.AuthError))
    expect(classes.length).toBeGreaterThan(40)
    for (const [name, value] of classes) expect({ name, same: (errors as Record<string, unknown>)[name] === value }).toEqual({ name, same: true })
    expect(errors.ERROR_CODES).toBe(root.ERROR_CODES)
    expect(errors.isClientSafe).toBe(root.isClientSafe)
    expect(new errors.CredentialsSignin()).toBeInstanceOf(root.AuthError)
  })

  it("/adapters has the ports and the adapter types of the root", () => {
    expect(adapters.ADAPTER_PORTS).toBe(root.ADAPTER_PORTS)
    expectTypeOf<import("../src/adapters.js").Adapter>().toEqualTypeOf<root.Adapter>()
    expectTypeOf<import("../src/adapters.js").AdapterUser>().toEqualTypeOf<root.AdapterUser>()
    expectTypeOf<import("../src/adapters.js").VerificationToken>().toEqualTypeOf<root.VerificationToken>()
  })

  it("/types has the model's types of the root", () => {
    expectTypeOf<types.Session>().toEqualTypeOf<root.Session>()
    expectTypeOf<types.AuthConfig>().toEqualTypeOf<root.AuthConfig>()
    expectTypeOf<types.User>().toEqualTypeOf<root.User>()
  })
})
