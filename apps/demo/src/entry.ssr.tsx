/**
 * Server-side rendering entry, used by the node server (src/entry.node-server.ts) and `vite` dev.
 */
import { renderToStream, type RenderToStreamOptions } from "@builder.io/qwik/server"
import Root from "./root"

export default function render(opts: RenderToStreamOptions) {
  return renderToStream(<Root />, {
    ...opts,
    containerAttributes: { lang: "en", ...opts.containerAttributes },
    serverData: { ...opts.serverData },
  })
}
