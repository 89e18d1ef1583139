"use server"
/**
 * The demo's server actions: sign-in and sign-out (Auth.js v5's `signIn`/`signOut`, redirecting),
 * the session update, and the account page's changes through authlib's server functions. Next runs
 * a server action only for a POST whose Origin matches the Host; core checks the rest (the session,
 * codes and their rate limits).
 */
import { AuthError, CredentialsSignin, RateLimited, SessionManagementError, TwoFactorError } from "@authlib/nextjs"
import { revalidatePath } from "next/cache"
import { redirect } from "next/navigation"
import {
  confirmTotpEnrollment,
  deletePasskey,
  disableTwoFactorSignIn,
  revokeOtherSessions,
  revokeSession,
  signIn,
  signOut,
  signOutEverywhere,
  startTotpEnrollment,
  unstable_update,
} from "../auth"

/** Where to go after signing in: a same-site path from the form, else home. */
function redirectTo(form: FormData): string {
  const to = String(form.get("callbackUrl") ?? "/")
  return to.startsWith("/") && !to.startsWith("//") ? to : "/"
}

/** The password form: a refused password comes back to the sign-in page as `?error=CredentialsSignin`. */
export async function signInWithPassword(form: FormData) {
  try {
    await signIn("password", { email: form.get("email"), password: form.get("password"), redirectTo: redirectTo(form) })
  } catch (err) {
    // Next's redirect is an error too: only authlib's refusals are answered here.
    if (err instanceof CredentialsSignin || err instanceof RateLimited) redirect(`/sign-in?error=${err.type}`)
    throw err
  }
}

/** A sign-in link by e-mail (it lands in the demo's inbox). */
export async function signInWithEmail(form: FormData) {
  await signIn("nodemailer", { email: form.get("email"), redirectTo: redirectTo(form) })
}

/** The Demo IdP (OpenID Connect): the browser goes there, then back through the callback. */
export async function signInWithIdp(form: FormData) {
  await signIn("demo-idp", { redirectTo: redirectTo(form) })
}

export async function signOutAction() {
  await signOut({ redirectTo: "/" })
}

/** A new display name: the server components of the next request and `useSession` both show it. */
export async function rename(form: FormData) {
  await unstable_update({ name: String(form.get("name") ?? "").slice(0, 80) })
  revalidatePath("/", "layout")
}

export async function endSession(form: FormData) {
  try {
    await revokeSession({ id: String(form.get("id") ?? "") })
  } catch (err) {
    // Ended already (in another tab or instance): the list below shows what is left.
    if (!(err instanceof SessionManagementError)) throw err
  }
  revalidatePath("/account")
}

export async function endOtherSessions() {
  await revokeOtherSessions()
  revalidatePath("/account")
}

export async function endEverySession() {
  await signOutEverywhere()
  redirect("/sign-in")
}

/** What the account page shows after a two-step change: a message, the secret and QR code, or codes once. */
export interface TwoStepState {
  message?: string
  enrolment?: { secret: string; qrSvg: string }
  backupCodes?: string[]
}

function refusal(err: unknown): TwoStepState {
  if (err instanceof RateLimited) return { message: "Too many attempts. Try again later." }
  if (err instanceof TwoFactorError || err instanceof AuthError) return { message: `That did not work (${(err as AuthError & { code?: string }).code ?? err.type}).` }
  throw err
}

export async function startTwoStep(): Promise<TwoStepState> {
  try {
    const { secret, qrSvg } = await startTotpEnrollment()
    return { enrolment: { secret, qrSvg } }
  } catch (err) {
    return refusal(err)
  }
}

export async function confirmTwoStep(_state: TwoStepState, form: FormData): Promise<TwoStepState> {
  try {
    const { backupCodes } = await confirmTotpEnrollment({ code: String(form.get("code") ?? "") })
    revalidatePath("/account")
    return { backupCodes, message: "Two-step verification is on." }
  } catch (err) {
    return refusal(err)
  }
}

export async function disableTwoStep(_state: TwoStepState, form: FormData): Promise<TwoStepState> {
  try {
    await disableTwoFactorSignIn({ code: String(form.get("code") ?? "") })
    revalidatePath("/account")
    return { message: "Two-step verification is off." }
  } catch (err) {
    return refusal(err)
  }
}

export async function removePasskey(form: FormData) {
  await deletePasskey({ id: String(form.get("id") ?? "") })
  revalidatePath("/account")
}
