// A real SMTP server (smtp-server) that keeps every message in memory, so specs can
// read verification and reset mails exactly as a user would receive them.
import { SMTPServer } from "smtp-server";
import { simpleParser } from "mailparser";

export async function startMailbox() {
  const messages = [];
  const waiters = new Set();

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const message = {
            to: (mail.to?.value ?? []).map((a) => a.address.toLowerCase()),
            subject: mail.subject ?? "",
            text: mail.text ?? "",
            html: typeof mail.html === "string" ? mail.html : "",
          };
          messages.push(message);
          for (const w of waiters) w();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const port = server.server.address().port;

  /** The first message to `to` (and whose subject matches, if given) arriving after `since`. */
  async function waitFor(to, { subject, since = 0, timeout = 15_000 } = {}) {
    const match = () =>
      messages.slice(since).find((m) => m.to.includes(to.toLowerCase()) && (!subject || subject.test?.(m.subject) || m.subject.includes(subject)));
    const deadline = Date.now() + timeout;
    for (;;) {
      const found = match();
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`No mail to ${to}${subject ? ` (${subject})` : ""} within ${timeout} ms; got: ${messages.map((m) => `${m.to} "${m.subject}"`).join(", ") || "none"}`);
      await new Promise((resolve) => {
        const wake = () => {
          waiters.delete(wake);
          resolve();
        };
        waiters.add(wake);
        setTimeout(wake, 250);
      });
    }
  }

  /** The first link in a mail whose path starts with `pathPrefix`, e.g. "/verify". */
  function link(message, pathPrefix) {
    const urls = `${message.html} ${message.text}`.match(/https?:\/\/[^\s"'<>]+/g) ?? [];
    const found = urls.map((u) => u.replace(/&amp;/g, "&")).find((u) => new URL(u).pathname.startsWith(pathPrefix));
    if (!found) throw new Error(`No ${pathPrefix} link in mail "${message.subject}"`);
    return found;
  }

  return {
    port,
    messages,
    waitFor,
    link,
    count: () => messages.length,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
