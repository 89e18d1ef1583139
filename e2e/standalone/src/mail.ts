/**
 * A mail server for the quick starts that send sign-in links: SMTP on 127.0.0.1 that accepts every
 * message and keeps it parsed (mailparser), so a test can read the link as the user would.
 */
import type { AddressInfo } from "node:net"
import { simpleParser, type ParsedMail } from "mailparser"
import { SMTPServer } from "smtp-server"

/** A running mail server: its `smtp://` URL, what it received, and how to stop it. */
export interface MailSink {
  readonly url: string
  readonly received: ParsedMail[]
  close(): Promise<void>
}

/** Starts the mail server on a port the system picks (no TLS, any or no login). */
export async function startMailSink(): Promise<MailSink> {
  const received: ParsedMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    hideSTARTTLS: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => (received.push(mail), callback()), callback)
    },
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.server.address() as AddressInfo
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}
