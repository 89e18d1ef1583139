/**
 * Invitations to an organization, mailed through the demo's own SMTP server (server/inbox.ts), so
 * they land on the Inbox page like sign-in links do. Core hands over the single-use link it built
 * from the configured `url`; the demo only writes the message around it.
 */
import type { InvitationMessage } from "@authlib/core"
import { createTransport } from "nodemailer"

/** The address invitations come from (the demo's own, never delivered anywhere). */
const FROM = "authlib demo <organizations@demo.authlib.local>"

/**
 * The link in the message: core's, with a callback URL to the organization page, where the
 * new member lands once it is accepted (core checks it like every callback URL; without it the
 * link lands on the home page).
 */
export function invitationLink(url: string): string {
  const link = new URL(url)
  link.searchParams.set("callbackUrl", "/organizations/")
  return link.href
}

/** The message's text: who invites to what, in which role, until when, and the link (the only URL in it). */
export function invitationText(message: InvitationMessage): string {
  const who = message.inviter.name ?? message.inviter.email ?? "A member"
  return [
    `${who} invited you to join ${message.organization.name} as ${message.role}.`,
    "",
    "Sign in with this address, then open the link to join:",
    invitationLink(message.url),
    "",
    `The link works once, until ${message.expires.toUTCString()}.`,
  ].join("\n")
}

/** `organizations.sendInvitation` for the mail server on `port` (127.0.0.1, no TLS: loopback only). */
export function invitationSender(port: number): (message: InvitationMessage) => Promise<void> {
  const transport = createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true })
  return async (message) => {
    await transport.sendMail({
      from: FROM,
      to: message.email,
      subject: `Join ${message.organization.name} on authlib demo`,
      text: invitationText(message),
    })
  }
}
