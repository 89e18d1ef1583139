/**
 * The QR code (capabilities/two-factor/qr-svg.ts): the SVG is read back into modules and decoded
 * with jsQR, an independent decoder, which must give the URI back; the size is that of a QR
 * version (17 + 4v modules) plus the quiet zone; the title is escaped.
 */
import jsqr from "jsqr"
import { describe, expect, it } from "vitest"
import { otpauthUri } from "../../../src/capabilities/two-factor/otpauth-uri.js"
import { QR_QUIET_ZONE, qrCodeSvg } from "../../../src/capabilities/two-factor/qr-svg.js"
import { createTotpKey } from "../../../src/capabilities/two-factor/totp.js"

// jsQR is CommonJS whose typings say `exports.default`: under NodeNext the default import is the
// module object; its `default` is the decoder (at run time both are).
const jsQR = jsqr.default

/** The SVG's dark modules as a matrix, from its one path of `M x,y h s v s h -s z` squares. */
function modulesOf(svg: string, moduleSize: number): { side: number; dark: boolean[][] } {
  const viewBox = /viewBox="0 0 (\d+) (\d+)"/.exec(svg)
  expect(viewBox?.[1]).toBe(viewBox?.[2])
  const side = Number(viewBox![1]) / moduleSize
  const dark = Array.from({ length: side }, () => Array<boolean>(side).fill(false))
  const path = /<path fill="black" d="([^"]*)"\/>/.exec(svg)![1]!
  for (const [, x, y] of path.matchAll(new RegExp(`M(\\d+),(\\d+)h${moduleSize}v${moduleSize}h-${moduleSize}z`, "g"))) {
    dark[Number(y) / moduleSize]![Number(x) / moduleSize] = true
  }
  expect(path.replace(new RegExp(`M\\d+,\\d+h${moduleSize}v${moduleSize}h-${moduleSize}z`, "g"), "")).toBe("")
  return { side, dark }
}

/** The modules rendered as an RGBA image, `scale` pixels per module, and decoded with jsQR. */
function decode(svg: string, moduleSize: number, scale = 4): string | undefined {
  const { side, dark } = modulesOf(svg, moduleSize)
  const width = side * scale
  const pixels = new Uint8ClampedArray(width * width * 4)
  for (let y = 0; y < width; y++) {
    for (let x = 0; x < width; x++) {
      const value = dark[Math.floor(y / scale)]![Math.floor(x / scale)] ? 0 : 255
      pixels.set([value, value, value, 255], (y * width + x) * 4)
    }
  }
  return jsQR(pixels, width, width)?.data
}

describe("qrCodeSvg", () => {
  it("encodes an otpauth URI that jsQR decodes back, for short and long labels", () => {
    for (const account of ["a@example.com", `${"long.name".repeat(20)}@example.com`]) {
      const uri = otpauthUri(createTotpKey({ algorithm: "SHA-512" }), { issuer: "Example Inc", account })
      expect(decode(qrCodeSvg(uri), 8)).toBe(uri)
    }
  })

  it("is a QR version's size (17 + 4v modules) plus a 4-module quiet zone on each side", () => {
    const uri = otpauthUri(createTotpKey(), { issuer: "Example", account: "ada@example.com" })
    const { side, dark } = modulesOf(qrCodeSvg(uri, { moduleSize: 3 }), 3)
    const version = (side - 2 * QR_QUIET_ZONE - 17) / 4
    expect(Number.isInteger(version) && version >= 1 && version <= 40, `side ${side}`).toBe(true)
    // The smallest version whose byte-mode capacity at level M (ISO/IEC 18004 table 7) holds the URI.
    const capacityM = [14, 26, 42, 62, 84, 106, 122, 152, 180, 213]
    expect(version).toBe(capacityM.findIndex((bytes) => bytes >= uri.length) + 1)
    const border = [...dark.slice(0, QR_QUIET_ZONE), ...dark.slice(-QR_QUIET_ZONE)].flat()
    expect(border.some(Boolean)).toBe(false)
  })

  it("has role=img, crisp edges, and an escaped title and aria-label", () => {
    const svg = qrCodeSvg("otpauth://totp/x:y?secret=A", { title: `Scan <me> & "go" $&` })
    expect(svg.startsWith('<svg role="img" shape-rendering="crispEdges" aria-label="Scan &lt;me&gt; &amp; &quot;go&quot; $&amp;" xmlns="http://www.w3.org/2000/svg" viewBox=')).toBe(true)
    expect(svg).toContain("<title>Scan &lt;me&gt; &amp; &quot;go&quot; $&amp;</title><rect")
    expect(svg.endsWith("</svg>")).toBe(true)
    expect(qrCodeSvg("x")).not.toContain("<title>")
    expect(() => qrCodeSvg("x", { moduleSize: 0 })).toThrow(/"moduleSize"/)
  })
})
