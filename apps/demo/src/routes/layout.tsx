import { component$, Slot } from "@builder.io/qwik"
import { Link, useLocation } from "@builder.io/qwik-city"

/** Pages in the main navigation. */
const nav = [{ href: "/", label: "Home" }]

export default component$(() => {
  const loc = useLocation()
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
        </div>
      </header>
      <main id="main" class="wrap" tabIndex={-1}>
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
