/**
 * `POST {basePath}/sso/acs/{connectionId}`: the SAML Assertion Consumer Service (HTTP-POST binding).
 * The IdP's cross-site form POST carries no CSRF token: what binds it to this browser is the binding
 * cookie (`SameSite=None`), whose AuthnRequest ID the Response's `InResponseTo` must equal, and the
 * request's single-use record (`request-record.ts`), taken only after the Response verified. On a
 * connection that allows IdP-initiated sign-in, an unsolicited Response (no `InResponseTo`) is
 * accepted instead, single use by its assertion ID (`unsolicited.ts`). The engine (`@authlib/saml`)
 * checks the Response; `complete.ts` does the rest. Every refusal is the error page with its code
 * (`refusal.ts`), nothing stored.
 */
import type { AuthRequest, AuthResponse, Context } from "../../kernel/types/http.js"
import type { AdapterSsoConnection } from "./adapter.js"
import type { SamlEngine } from "./provider.js"
import { readBinding } from "./binding.js"
import { samlEngine } from "./engine.js"
import { refuse, type SsoSignInCode } from "./refusal.js"
import { takeRequest } from "./request-record.js"
import { openSsoSecret } from "./seal.js"
import { connectionUrls, ssoOptions, ssoProvider, ssoStore } from "./store.js"
import { completeSsoSignIn } from "./complete.js"
import { SSO_SIGN_IN_ERROR_CODES } from "./errors.js"
import { isMultiFactorContext } from "./mfa.js"
import { claimAssertion, relayStateTarget } from "./unsolicited.js"

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

type Verified = Awaited<ReturnType<SamlEngine["verifySamlResponse"]>>

/** The engine's check of `samlResponse` for `connection`: the assertion, or the refusal's code. */
async function verify(ctx: Context, connection: AdapterSsoConnection, samlResponse: string, expectedRequestId: string | null): Promise<Verified | { code: SsoSignInCode; reason: string }> {
  const engine = await samlEngine(ssoProvider(ctx))
  const urls = connectionUrls(ctx, connection.id)
  const privateKeyPem = await openSsoSecret(connection.spPrivateKeySealed!, "sp-private-key", connection.id, ctx.config.secret)
  try {
    return await engine.verifySamlResponse({
      samlResponse,
      sp: { entityId: urls.entityId, acsUrl: urls.acsUrl, privateKeyPem },
      idp: { entityId: connection.idpEntityId!, certificates: connection.idpCertificates },
      // Without a request of this browser, only a connection that allows IdP-initiated sign-in accepts a Response (else IN_RESPONSE_TO_*).
      expectedRequestId,
      allowIdpInitiated: expectedRequestId === null && connection.allowIdpInitiated === true,
      maxResponseBytes: ssoOptions(ctx).maxResponseBytes,
    })
  } catch (err) {
    const code = codeOf(err)
    if (!code) throw err
    return { code, reason: (err as Error).message }
  }
}

export async function acsRoute(req: AuthRequest, ctx: Context, connectionId: string | undefined): Promise<AuthResponse> {
  ssoOptions(ctx)
  const connection = await samlConnection(ctx, connectionId)
  if (!connection) return refuse(ctx, "CONNECTION_UNKNOWN")
  const binding = await readBinding(ctx, req.cookies, connection.id)
  const samlResponse = req.body.SAMLResponse
  if (typeof samlResponse !== "string" || samlResponse === "") return refuse(ctx, "MALFORMED", { connectionId: connection.id })
  let assertion = await verify(ctx, connection, samlResponse, binding?.requestId ?? null)
  // A browser with a started request may still bring an unsolicited Response (its user went to the
  // IdP's portal instead): on a connection that allows those, it is checked as one. A Response that
  // names a request must still name this browser's.
  if ("code" in assertion && assertion.code === "IN_RESPONSE_TO_MISSING" && binding && connection.allowIdpInitiated) assertion = await verify(ctx, connection, samlResponse, null)
  if ("code" in assertion) return refuse(ctx, assertion.code, { connectionId: connection.id, reason: assertion.reason })
  let callbackUrl: string
  if (assertion.inResponseTo === null) {
    // Unsolicited (the engine accepted it only because the connection allows it): single use by the assertion's ID.
    if (!(await claimAssertion(ctx, connection.id, assertion))) return refuse(ctx, "ASSERTION_REPLAYED", { connectionId: connection.id, assertionId: assertion.assertionId, unsolicited: true })
    callbackUrl = await relayStateTarget(req, ctx)
  } else {
    if (!binding || !(await takeRequest(ctx, connection.id, binding.requestId))) return refuse(ctx, "ASSERTION_REPLAYED", { connectionId: connection.id, assertionId: assertion.assertionId })
    callbackUrl = binding.callbackUrl
  }
  const name = assertion.attributes.displayName?.[0] ?? assertion.attributes.name?.[0] ?? null
  return completeSsoSignIn(req, ctx, connection, { subject: assertion.nameId, email: assertion.email, name, mfa: isMultiFactorContext(assertion.authnContextClassRef) }, callbackUrl)
}
