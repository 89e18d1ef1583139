/**
 * What a capability adds to the public types by declaration merging (its option, page, rate-limit
 * section, event, error type and adapter port) reaches an application through the emitted `.d.ts`, not
 * only inside this package's own program: the declarations are emitted in memory from the build
 * config and a consumer is type-checked against them, the way it would be against `dist/`.
 */
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { describe, expect, it } from "vitest"

const core = join(dirname(fileURLToPath(import.meta.url)), "..")
// Inside the package, so the emitted files resolve `@authlib/jwt` from its node_modules as dist/ does.
const out = join(core, ".emitted-types")

/** The declarations of the package's entries, emitted with its build options: path -> text. */
function emitDeclarations(): Map<string, string> {
  const config = ts.getParsedCommandLineOfConfigFile(join(core, "tsconfig.build.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!
  const options = { ...config.options, outDir: out, emitDeclarationOnly: true, declarationMap: false, sourceMap: false }
  const files = new Map<string, string>()
  const program = ts.createProgram(config.fileNames, options)
  program.emit(undefined, (path, text) => files.set(path, text))
  return files
}

/** The diagnostics of `source` as a consumer's module importing `@authlib/core` from `files`. */
function consumerDiagnostics(files: Map<string, string>, source: string): string[] {
  const app = join(out, "..", "consumer-app.ts")
  const options: ts.CompilerOptions = {
    strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"], types: [], skipLibCheck: false, baseUrl: core,
    paths: { "@authlib/core": [join(out, "index.d.ts")] },
  }
  const host = ts.createCompilerHost(options)
  const read = host.readFile.bind(host)
  const exists = host.fileExists.bind(host)
  host.readFile = (path) => (path === app ? source : (files.get(path) ?? read(path)))
  host.fileExists = (path) => path === app || files.has(path) || exists(path)
  const dirs = new Set([...files.keys()].flatMap((path) => path.slice(out.length).split("/").slice(1, -1).map((_, i, parts) => join(out, ...parts.slice(0, i + 1)))))
  const dirExists = host.directoryExists?.bind(host)
  host.directoryExists = (path) => path === out || dirs.has(path) || (dirExists?.(path) ?? true)
  const program = ts.createProgram([app], options, host)
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? `${d.file.fileName.slice(core.length)}: ` : ""}${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`)
}

const CONSUMER = `
import type { Adapter, AnyAuthError, AuthConfig, RateLimitGroup } from "@authlib/core"
import { ADAPTER_PORTS, ERROR_CODES, TwoFactorError, WebAuthnVerificationError } from "@authlib/core"

const adapter: Adapter = { getTwoFactor: async () => null, countTwoFactorAttempt: async () => null, resetTwoFactorFailures: async () => false, deleteTwoFactor: async () => true }
export const config: AuthConfig = {
  providers: [],
  adapter,
  twoFactor: { issuer: "x", freshAge: 60, lockAfterFailures: 10, required: (user) => user.email !== null },
  events: { twoFactorLocked: ({ user, failedAttempts }) => void [user.id.length, failedAttempts.toFixed()] },
  rateLimit: {
    twoFactor: { perUser: false, perSignIn: { limit: 3, window: 60 } },
    credentials: { perClient: false, identifier: (c) => (typeof c.login === "string" ? c.login : undefined) },
    email: { maxLiveTokens: 2 },
    oauth: { perClient: { limit: 10, window: 60 } },
    passkey: { perClient: false },
  },
  pages: { twoFactor: "/two-step" },
}
// @ts-expect-error not an option of twoFactor
export const wrong: AuthConfig = { providers: [], twoFactor: { issuers: "x" } }
export const group: RateLimitGroup = "twoFactor.perSignIn"
export const groups: readonly RateLimitGroup[] = ["credentials.perIdentifier", "email.perAddress", "oauth.perClient", "passkey.perClient"]
export function codeOf(err: AnyAuthError): string | undefined {
  if (err.type === "TwoFactorError") {
    const narrowed: TwoFactorError = err
    return narrowed.code
  }
  return undefined
}
export const refused = new TwoFactorError("x", { code: "CODE_INVALID" })
export const locked = new TwoFactorError("x", { code: "TOTP_LOCKED" })
// @ts-expect-error not a code of TwoFactorError
export const unknown = new TwoFactorError("x", { code: "NOT_A_CODE" })
export const lists: readonly string[] = [...ERROR_CODES.TwoFactorError, ...ADAPTER_PORTS.twoFactor, ...ADAPTER_PORTS.accountTokens, ...ERROR_CODES.WebAuthnVerificationError]
export const passkeyRefused = new WebAuthnVerificationError("x", { code: "CHALLENGE_USED" })
// @ts-expect-error not a code of WebAuthnVerificationError
export const passkeyUnknown = new WebAuthnVerificationError("x", { code: "NOT_A_CODE" })
`

describe("the emitted types", () => {
  it("type a capability's option, page, limits, error and port for an application, though the kernel's types do not name them", () => {
    const files = emitDeclarations()
    const kernelConfig = files.get(join(out, "kernel", "types", "config.d.ts"))
    expect(kernelConfig).toContain("interface AuthConfig extends CapabilityOptions")
    expect(kernelConfig).not.toMatch(/twoFactor/i)
    expect(consumerDiagnostics(files, CONSUMER)).toEqual([])
    // The check itself can fail: a misspelt option is refused.
    expect(consumerDiagnostics(files, CONSUMER.replace("// @ts-expect-error not an option of twoFactor\n", ""))).toEqual([
      expect.stringContaining("'issuers' does not exist in type 'TwoFactorOptions'"),
    ])
  }, 120_000)
})
