import { XMLSerializer } from "@xmldom/xmldom"
import { decrypt } from "xml-encryption"
import { refuse } from "../errors.js"
import { attr, childElements, descendants } from "../xml/dom.js"
import { NS } from "../xml/namespaces.js"

const GCM = ["http://www.w3.org/2009/xmlenc11#aes128-gcm", "http://www.w3.org/2009/xmlenc11#aes256-gcm"]
const CBC = ["http://www.w3.org/2001/04/xmlenc#aes128-cbc", "http://www.w3.org/2001/04/xmlenc#aes256-cbc"]
// RSA-OAEP only: RSA PKCS#1 v1.5 key transport is open to Bleichenbacher's oracle.
const KEY_TRANSPORT = ["http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p", "http://www.w3.org/2009/xmlenc11#rsa-oaep"]

/**
 * Decrypt an `EncryptedAssertion` with the SP private key and return the assertion's XML text (still
 * unverified: the caller checks it like any other assertion). Content encryption must be AES-GCM
 * (AES-CBC only with `allowCbc`: CBC without integrity is the XML Encryption padding-oracle attack), key
 * transport RSA-OAEP. Every failure past the algorithm check is one code, `DECRYPTION_FAILED`, so a
 * sender probing with altered ciphertexts learns nothing from which step failed.
 */
export async function decryptAssertion(encrypted: Element, privateKeyPem: string, allowCbc: boolean): Promise<string> {
  const data = childElements(encrypted, NS.xenc, "EncryptedData")
  const keys = descendants(encrypted, NS.xenc, "EncryptedKey")
  if (data.length !== 1 || keys.length !== 1) {
    refuse("DECRYPTION_FAILED", "an EncryptedAssertion must hold one EncryptedData and one EncryptedKey")
  }
  const content = algorithmOf(data[0] as Element)
  if (!(GCM.includes(content ?? "") || (allowCbc && CBC.includes(content ?? "")))) {
    refuse("ALGORITHM_REFUSED", "the assertion's content encryption is not allowed", { received: content })
  }
  const transport = algorithmOf(keys[0] as Element)
  if (!KEY_TRANSPORT.includes(transport ?? "")) {
    refuse("ALGORITHM_REFUSED", "the assertion's key transport is not allowed", { received: transport })
  }
  const xml = new XMLSerializer().serializeToString(encrypted)
  return new Promise((resolve, reject) => {
    const options = { key: privateKeyPem, disallowDecryptionWithInsecureAlgorithm: false, warnInsecureAlgorithm: false }
    decrypt(xml, options, (error, result) => {
      if (error || typeof result !== "string") {
        reject(new (class extends Error {})())
        return
      }
      resolve(result)
    })
  }).then(
    (result) => result as string,
    () => refuse("DECRYPTION_FAILED", "the EncryptedAssertion does not decrypt with the SP key"),
  )
}

function algorithmOf(el: Element): string | null {
  const [method] = childElements(el, NS.xenc, "EncryptionMethod")
  return method ? attr(method, "Algorithm") : null
}
