/**
 * The single use of a started sign-in, across instances: at the start a verification token records
 * the AuthnRequest ID (or OIDC state) for 5 minutes; the ACS (or callback) takes it with
 * `useVerificationToken`, of which exactly one concurrent caller receives it. An assertion that
 * answers a request is accepted only while this store still holds that request, so each such
 * assertion, whatever its ID, signs in at most once: a replay to this or another instance finds the
 * record gone (`ASSERTION_REPLAYED`). (An unsolicited one, where a connection allows it, is single
 * use by its own ID: `unsolicited.ts`.) The record holds a hash, never the ID itself.
 */
import { adapterMethods } from "../../kernel/ports/ports.js"
import { sha256 } from "../../kernel/security/random.js"
import type { Context } from "../../kernel/types/http.js"
import { BINDING_MAX_AGE } from "./binding.js"

const identifierOf = (connectionId: string) => `authlib:sso-request:${connectionId}`
const store = (ctx: Context) => adapterMethods(ctx.config.adapter, ["createVerificationToken", "useVerificationToken"], "Enterprise SSO")

/** Records the started request `requestId` of `connectionId`, valid 5 minutes. */
export async function recordRequest(ctx: Context, connectionId: string, requestId: string): Promise<void> {
  await store(ctx).createVerificationToken({ identifier: identifierOf(connectionId), token: sha256(requestId), expires: new Date(Date.now() + BINDING_MAX_AGE * 1000) })
}

/** Takes the record of `requestId`: true for exactly one caller, while it has not expired. */
export async function takeRequest(ctx: Context, connectionId: string, requestId: string): Promise<boolean> {
  const record = await store(ctx).useVerificationToken({ identifier: identifierOf(connectionId), token: sha256(requestId) })
  return record !== null && record !== undefined && new Date(record.expires).getTime() > Date.now()
}
