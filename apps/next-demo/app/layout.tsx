import { SessionProvider } from "@authlib/nextjs/react"
import type { ReactNode } from "react"
import { auth } from "../auth"
import { signOutAction } from "./actions"

export const metadata = { title: "authlib demo (Next.js)" }

export default async function Layout({ children }: { children: ReactNode }) {
  // The session read on the server seeds the client's useSession: no loading state on first paint.
  const session = await auth()
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", maxWidth: 760, margin: "2rem auto", padding: "0 1rem" }}>
        <nav style={{ display: "flex", gap: "1rem", alignItems: "center" }}>
          <a href="/">Home</a>
          <a href="/account">Account</a>
          <a href="/protected">Protected</a>
          <a href="/inbox">Inbox</a>
          {session ? (
            <form action={signOutAction}>
              <button id="sign-out" type="submit">Sign out</button>
            </form>
          ) : (
            <a href="/sign-in">Sign in</a>
          )}
        </nav>
        <SessionProvider session={session}>{children}</SessionProvider>
      </body>
    </html>
  )
}
