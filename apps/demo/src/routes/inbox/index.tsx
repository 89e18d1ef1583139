import { component$ } from "@builder.io/qwik"
import { routeLoader$, type DocumentHead } from "@builder.io/qwik-city"

/** Links in a message's text, so the magic link can be followed from here. */
function linksOf(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"')]+/g)].map((m) => m[0])
}

/**
 * Every magic link the demo sent is here, so only a browser on this machine, talking to the app
 * directly, may see them (the app may listen on other interfaces when WEBAUTH_URL is set).
 */
export const useInbox = routeLoader$(async (ev) => {
  const { isLocalRequest } = await import("../../server/local-only")
  if (!isLocalRequest(ev.clientConn.ip, ev.request.headers)) {
    ev.status(403)
    return null
  }
  const { inboxMessages } = await import("../../server/inbox")
  return inboxMessages().map((m) => ({ ...m, links: linksOf(m.text) }))
})

export default component$(() => {
  const inbox = useInbox()
  if (inbox.value === null) {
    return (
      <section aria-labelledby="inbox-title">
        <h1 id="inbox-title">Inbox</h1>
        <p class="lead" role="alert">
          The inbox holds everyone's sign-in links, so it is only shown to a browser on the machine that runs the demo
          (http://127.0.0.1 or http://localhost, without a proxy).
        </p>
      </section>
    )
  }
  return (
    <section aria-labelledby="inbox-title">
      <h1 id="inbox-title">Inbox</h1>
      <p class="lead">Mail the demo's local SMTP server received. Nothing leaves this machine.</p>
      {inbox.value.length === 0 ? (
        <p class="empty">No mail yet. Ask for a sign-in link on the sign-in page, then come back here.</p>
      ) : (
        <ol class="mails">
          {inbox.value.map((m) => (
            <li key={m.id} class="card mail">
              <article aria-label={m.subject}>
                <header>
                  <h2>{m.subject}</h2>
                  <p class="muted">
                    To {m.to} · from {m.from} · <time dateTime={m.receivedAt}>{new Date(m.receivedAt).toUTCString()}</time>
                  </p>
                </header>
                <pre class="mail-text">{m.text}</pre>
                {m.links.map((href) => (
                  <a key={href} class="button primary" href={href}>
                    Open the link in this message
                  </a>
                ))}
              </article>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
})

export const head: DocumentHead = { title: "Inbox" }
