import { component$ } from "@builder.io/qwik"
import { useDocumentHead, useLocation } from "@builder.io/qwik-city"

/** The document head of every page: title and meta from each route's `head` export. */
export const RouterHead = component$(() => {
  const head = useDocumentHead()
  const loc = useLocation()
  return (
    <>
      <title>{head.title ? `${head.title} · authlib demo` : "authlib demo"}</title>
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="color-scheme" content="light dark" />
      <link rel="canonical" href={loc.url.href} />
      <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
      {head.meta.map((m) => (
        <meta key={m.key} {...m} />
      ))}
      {head.links.map((l) => (
        <link key={l.key} {...l} />
      ))}
    </>
  )
})
