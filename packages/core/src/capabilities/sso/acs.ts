/**
 * `POST {basePath}/sso/acs/{connectionId}`: the SAML Assertion Consumer Service (HTTP-POST binding).
 * The IdP's cross-site form POST carries no CSRF token: what binds it to this browser is the binding
 * cookie (`SameSite=None`), whose AuthnRequest ID the Response's `InResponseTo` must equal, and the
 * request's single-use record (`request-record.ts`), taken only after the Response verified. The
 * engine (`@authlib/saml`) checks the Response; `complete.ts` does the rest. Every refusal is the
 * error page with its code (`refusal.ts`), nothing stored.
 */
import type { AuthRequest, AuthResponse, Context } from "../../kernel/types/http.js"
import type { AdapterSsoConnection } from "./adapter.js"
import { readBinding } from "./binding.js"
import { samlEngine } from "./engine.js"
import { refuse, type SsoSignInCode } from "./refusal.js"
import { takeRequest } from "./request-record.js"
import { openSsoSecret } from "./seal.js"
import { connectionUrls, ssoOptions, ssoProvider, ssoStore } from "./store.js"
import { completeSsoSignIn } from "./complete.js"
import { SSO_SIGN_IN_ERROR_CODES } from "./errors.js"
import { isMultiFactorContext } from "./mfa.js"

const ID = /^[A-Za-z0-9_-]{1,64}$/

/** A SAML refusal's code when it is one of ours (the engine's `METADATA_TOO_LARGE` never reaches the ACS). */
const codeOf = (err: unknown): SsoSignInCode | undefined => {
  const code = (err as { name?: string; code?: unknown } | null)?.code
  return err instanceof Error && err.name === "SamlError" && (SSO_SIGN_IN_ERROR_CODES as readonly unknown[]).includes(code) ? (code as SsoSignInCode) : undefined
}

/** The connection a route's `step/id` names, when it is a SAML one. */
async function samlConnection(ctx: Context, id: string | undefined): Promise<AdapterSsoConnection | null> {
  if (!id || !ID.test(id)) return null
  const connection = await ssoStore(ctx).getSsoConnection(id)
  return connection?.type === "saml" ? connection : null
}

export async function acsRoute(req: AuthRequest, ctx: Context, connectionId: string | undefined): Promise<AuthResponse> {
  const { maxResponseBytes } = ssoOptions(ctx)
  const connection = await samlConnection(ctx, connectionId)
  if (!connection) return refuse(ctx, "CONNECTION_UNKNOWN")
  const binding = await readBinding(ctx, req.cookies, connection.id)
  const samlResponse = req.body.SAMLResponse
  if (typeof samlResponse !== "string" || samlResponse === "") return refuse(ctx, "MALFORMED", { connectionId: connection.id })
  const engine = await samlEngine(ssoProvider(ctx))
  const urls = connectionUrls(ctx, connection.id)
  const privateKeyPem = await openSsoSecret(connection.spPrivateKeySealed!, "sp-private-key", connection.id, ctx.config.secret)
  let assertion: Awaited<ReturnType<typeof engine.verifySamlResponse>>
  try {
    assertion = await engine.verifySamlResponse({
      samlResponse,
      sp: { entityId: urls.entityId, acsUrl: urls.acsUrl, privateKeyPem },
      idp: { entityId: connection.idpEntityId!, certificates: connection.idpCertificates },
      // Without this browser's binding no request is expected: the engine refuses the Response (IN_RESPONSE_TO_*).
      expectedRequestId: binding?.requestId ?? null,
      maxResponseBytes,
    })
  } catch (err) {
    const code = codeOf(err)
    if (!code) throw err
    return refuse(ctx, code, { connectionId: connection.id, reason: (err as Error).message })
  }
  if (!binding || !(await takeRequest(ctx, connection.id, binding.requestId))) return refuse(ctx, "ASSERTION_REPLAYED", { connectionId: connection.id, assertionId: assertion.assertionId })
  const name = assertion.attributes.displayName?.[0] ?? assertion.attributes.name?.[0] ?? null
  return completeSsoSignIn(req, ctx, connection, { subject: assertion.nameId, email: assertion.email, name, mfa: isMultiFactorContext(assertion.authnContextClassRef) }, binding.callbackUrl)
}
