// A real SMTP server (smtp-server) that keeps every message in memory, so specs can
// read verification and reset mails exactly as a user would receive them. It runs once in
// the global setup; the test workers read it over HTTP through `mailboxClient`.
import { createServer } from "node:http";
import { SMTPServer } from "smtp-server";
import { simpleParser } from "mailparser";

const listen = (server) =>
  new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });

/** Starts the SMTP capture and its read endpoint; `port` is SMTP's, `url` the endpoint's. */
export async function startMailbox() {
  const messages = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push({
            to: (mail.to?.value ?? []).map((a) => a.address.toLowerCase()),
            subject: mail.subject ?? "",
            text: mail.text ?? "",
            html: typeof mail.html === "string" ? mail.html : "",
          });
          callback();
        })
        .catch(callback);
    },
  });
  await listen(smtp);
  // GET /?since=N answers the messages from the N-th on and the total count.
  const http = createServer((req, res) => {
    const since = Number(new URL(req.url, "http://x").searchParams.get("since") ?? 0);
    res.setHeader("Content-Type", "application/json");
    res.end(JSON.stringify({ count: messages.length, messages: messages.slice(since) }));
  });
  await listen(http);
  return {
    port: smtp.server.address().port,
    url: `http://127.0.0.1:${http.address().port}`,
    close: () => Promise.all([new Promise((resolve) => smtp.close(resolve)), new Promise((resolve) => http.close(resolve))]),
  };
}

/** A test's view of the mailbox started by `startMailbox` at `url`. */
export function mailboxClient(url) {
  const read = async (since = 0) => (await fetch(`${url}/?since=${since}`)).json();

  /** How many messages arrived so far: pass it as `since` to wait for the next one. */
  const count = async () => (await read()).count;

  /** The first message to `to` (and whose subject matches, if given) arriving after `since`. */
  async function waitFor(to, { subject, since = 0, timeout = 15_000 } = {}) {
    const deadline = Date.now() + timeout;
    for (;;) {
      const { messages } = await read(since);
      const found = messages.find((m) => m.to.includes(to.toLowerCase()) && (!subject || subject.test?.(m.subject) || m.subject.includes(subject)));
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`No mail to ${to}${subject ? ` (${subject})` : ""} within ${timeout} ms; got: ${messages.map((m) => `${m.to} "${m.subject}"`).join(", ") || "none"}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /** The first link in a mail whose path starts with `pathPrefix`, e.g. "/verify". */
  function link(message, pathPrefix) {
    const urls = `${message.html} ${message.text}`.match(/https?:\/\/[^\s"'<>]+/g) ?? [];
    const found = urls.map((u) => u.replace(/&amp;/g, "&")).find((u) => new URL(u).pathname.startsWith(pathPrefix));
    if (!found) throw new Error(`No ${pathPrefix} link in mail "${message.subject}"`);
    return found;
  }

  return { count, waitFor, link };
}
