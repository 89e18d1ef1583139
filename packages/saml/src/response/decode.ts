import { refuse } from "../errors.js"

/**
 * The XML text of an HTTP-POST `SAMLResponse` form value. The size limit applies before anything is
 * decoded or parsed: first to the base64 text (at most 4/3 of the limit, plus line breaks some IdPs add),
 * then to the decoded bytes.
 */
export function decodePostedResponse(samlResponse: unknown, maxBytes: number): string {
  if (typeof samlResponse !== "string" || samlResponse.length === 0) refuse("MALFORMED", '"SAMLResponse" is missing')
  if (samlResponse.length > Math.ceil(maxBytes / 3) * 4 * 1.05 + 8) {
    refuse("RESPONSE_TOO_LARGE", "the SAMLResponse is larger than allowed", { maxBytes, received: samlResponse.length })
  }
  const base64 = samlResponse.replace(/[\r\n\t ]+/g, "")
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 !== 0) refuse("MALFORMED", '"SAMLResponse" is not base64')
  const bytes = Buffer.from(base64, "base64")
  if (bytes.length > maxBytes) refuse("RESPONSE_TOO_LARGE", "the SAMLResponse is larger than allowed", { maxBytes, received: bytes.length })
  const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false })
  try {
    return text.decode(bytes)
  } catch {
    return refuse("MALFORMED", "the SAMLResponse is not UTF-8")
  }
}
