import { component$, Slot } from "@builder.io/qwik"
import { Form, Link, routeLoader$, useLocation, type RequestHandler } from "@builder.io/qwik-city"
import { useSession, useSignOut } from "./plugin@auth"
import { endedNotice, noteEndedSession } from "../server/session-ended"

/** Before any page or action: did this browser come with a session that ended elsewhere? */
export const onRequest: RequestHandler = async (ev) => {
  await noteEndedSession(ev)
}

/** "You were signed out", once, on the page a browser whose session ended loads (see server/session-ended.ts). */
export const useSessionEndedNotice = routeLoader$((ev) => endedNotice(ev))

/** Pages in the main navigation. */
const nav = [
  { href: "/", label: "Home" },
  { href: "/account/", label: "Account" },
  { href: "/organizations/", label: "Organizations" },
  { href: "/session/", label: "Session" },
  { href: "/inbox/", label: "Inbox" },
]

const AccountMenu = component$(() => {
  const session = useSession()
  const signOut = useSignOut()
  const user = session.value?.user
  if (!user) {
    return (
      <Link href="/sign-in/" class="button primary small">
        Sign in
      </Link>
    )
  }
  return (
    <Form action={signOut} class="account-menu">
      <input type="hidden" name="redirectTo" value="/" />
      <span class="who" title={user.email ?? undefined}>
        {user.name ?? user.email}
      </span>
      <button type="submit" class="button small">
        Sign out
      </button>
    </Form>
  )
})

export default component$(() => {
  const loc = useLocation()
  const ended = useSessionEndedNotice()
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="site-header">
        <div class="wrap header-row">
          <Link href="/" class="brand" aria-label="authlib demo, home">
            <img src="/favicon.svg" alt="" width={28} height={28} />
            <span>
              authlib <span class="brand-muted">demo</span>
            </span>
          </Link>
          <nav aria-label="Main">
            <ul class="nav-list">
              {nav.map((item) => (
                <li key={item.href}>
                  <Link href={item.href} aria-current={loc.url.pathname === item.href ? "page" : undefined}>
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <AccountMenu />
        </div>
      </header>
      <main id="main" class="wrap" tabIndex={-1}>
        {ended.value && (
          <p class="notice session-ended" role="status">
            {ended.value}
          </p>
        )}
        <Slot />
      </main>
      <footer class="site-footer">
        <div class="wrap">
          Runs entirely on this machine: embedded database, local identity provider and mail inbox. No accounts, no
          cloud.
        </div>
      </footer>
    </>
  )
})
