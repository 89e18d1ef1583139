// What an Auth.js v5 app's auth.ts holds, with the import changed: one configuration, every server
// function of authlib bound to it.
import NextAuth from "@authlib/nextjs"
import { demoConfig } from "./lib/demo"

export const {
  handlers,
  auth,
  signIn,
  signOut,
  unstable_update,
  listSessions,
  revokeSession,
  revokeOtherSessions,
  signOutEverywhere,
  getTwoFactorStatus,
  startTotpEnrollment,
  confirmTotpEnrollment,
  disableTwoFactorSignIn,
  listPasskeys,
  deletePasskey,
} = NextAuth(demoConfig)
