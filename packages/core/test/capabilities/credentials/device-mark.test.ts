import { describe, expect, it } from "vitest"
import { DEVICE_MARK_MAX_AGE, deviceMarkCookie, verifiedDeviceMark } from "../../../src/capabilities/credentials/device-mark.js"
import { serializeCookie } from "../../../src/internal.js"

const SECRET = "device-mark-test-secret-0123456789abcdef"
const OTHER = "another-device-mark-secret-0123456789abc"
const DAY = 24 * 3600 * 1000

describe("device marks", () => {
  it("a mark checked a moment ago is answered again from memory, and turns due for renewal at half its life there too", () => {
    const madeAt = Date.UTC(2026, 10, 1, 12)
    const { value } = deviceMarkCookie("half-life@example.com", SECRET, false, madeAt)
    const half = madeAt + (DEVICE_MARK_MAX_AGE * 1000) / 2
    // Checked (its MAC) 30 s before half its life: not due.
    expect(verifiedDeviceMark(value, "half-life@example.com", [SECRET], half - 30_000)).toMatchObject({ renew: false })
    // 40 s later, within the minute it is taken on trust: past half its life, due.
    expect(verifiedDeviceMark(value, "half-life@example.com", [SECRET], half + 10_000)).toMatchObject({ renew: true })
    // And due while its secret is no longer the first one.
    expect(verifiedDeviceMark(value, "half-life@example.com", [OTHER, SECRET], half - 20_000)).toMatchObject({ renew: true })
    expect(verifiedDeviceMark(value, "half-life@example.com", [SECRET], half - 20_000)).toMatchObject({ renew: false })
    // Its id is the same every time; another identifier or an expired mark gets nothing.
    const ids = new Set([half - 30_000, half - 20_000, half + 10_000].map((t) => verifiedDeviceMark(value, "half-life@example.com", [SECRET], t)!.id))
    expect(ids.size).toBe(1)
    expect(verifiedDeviceMark(value, "someone-else@example.com", [SECRET], half)).toBeUndefined()
    expect(verifiedDeviceMark(value, "half-life@example.com", [SECRET], madeAt + 31 * DAY)).toBeUndefined()
  })

  it("within a minute an identifier gets the same frozen cookie, whose text is what serializeCookie writes for its fields", () => {
    const now = Date.UTC(2026, 10, 2, 12)
    const first = deviceMarkCookie("same@example.com", SECRET, true, now)
    const again = deviceMarkCookie("same@example.com", SECRET, true, now + 59_000)
    expect(again).toBe(first)
    expect(Object.isFrozen(first)).toBe(true)
    expect(serializeCookie(first)).toBe(serializeCookie({ name: first.name, value: first.value, options: { ...first.options } }))
    expect(serializeCookie(first)).toMatch(/^__Secure-authlib\.device-mark=[0-9]+\.[^.;]+\.[^.;]+; Max-Age=2592000; Path=\/; HttpOnly; Secure; SameSite=Lax$/)
    // Over http the same mark, in its own cookie; after the minute, a new mark.
    const plain = deviceMarkCookie("same@example.com", SECRET, false, now + 1000)
    expect(plain).toMatchObject({ name: "authlib.device-mark", value: first.value })
    expect(deviceMarkCookie("same@example.com", SECRET, true, now + 60_000).value).not.toBe(first.value)
  })
})
