/**
 * A QR code as an SVG string, made on the server (no script, no image request): what the built-in
 * page and apps show for enrolment. The encoder is `uqr` (unjs; zero dependencies, pure ESM, about
 * 4 KB gzipped, no Node APIs), at error correction level M (15%: survives a glare or a scratched
 * screen without growing the code much) with the 4-module quiet zone the QR standard asks for.
 */
import { renderSVG } from "uqr"
import { escapeHtml } from "../../kernel/pages/html.js"

/** Options of `qrCodeSvg`. */
export interface QrCodeSvgOptions {
  /** An accessible name (`<title>` and `aria-label`), e.g. "QR code to add Example to your authenticator app". */
  title?: string
  /** Side length of one module in SVG user units; the image scales freely. Default 8. */
  moduleSize?: number
}

/** Modules of white border around the code: ISO/IEC 18004 asks for 4. */
export const QR_QUIET_ZONE = 4

/**
 * `text` (for example an `otpauth://` URI) as an SVG QR code: one `<rect>` background and one
 * `<path>` of dark modules, with `role="img"` and, when given, an escaped title.
 */
export function qrCodeSvg(text: string, options: QrCodeSvgOptions = {}): string {
  const moduleSize = options.moduleSize ?? 8
  if (!Number.isInteger(moduleSize) || moduleSize < 1) throw new TypeError(`"moduleSize" must be a positive integer, got ${String(moduleSize)}`)
  const svg = renderSVG(text, { ecc: "M", border: QR_QUIET_ZONE, pixelSize: moduleSize })
  const title = options.title === undefined ? "" : escapeHtml(options.title)
  const open = svg.indexOf(">") + 1
  const attributes = ` role="img" shape-rendering="crispEdges"${title ? ` aria-label="${title}"` : ""}`
  // Spliced by position, not by `replace`: a title holding "$&" must stay text.
  return `<svg${attributes}${svg.slice(4, open)}${title ? `<title>${title}</title>` : ""}${svg.slice(open)}`
}
