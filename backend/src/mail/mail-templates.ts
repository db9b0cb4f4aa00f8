/**
 * Every mail the product sends, as subject + plain text + HTML, in one place. Callers fill
 * in the recipient (`mail.send({ to, ...mailTemplates.x(...) })`).
 */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

type Person = { firstName?: string | null; username: string };
const hello = (p: Person) => p.firstName || p.username;

export const mailTemplates = {
  /** Sign-up with an address that already has a verified account: tell its owner. */
  registrationAttempt(owner: Person, appUrl: string): MailContent {
    return {
      subject: 'Someone tried to register with your e-mail address',
      text:
        `Hello ${hello(owner)},\n\nSomeone (perhaps you) tried to create a GangSheet Studio account with this e-mail address. ` +
        `You already have an account (username "${owner.username}").\n\nSign in: ${appUrl}/auth/signin\n` +
        `Forgot your password? ${appUrl}/auth/forgot-password\n\nIf it was not you, you can ignore this e-mail; nothing has changed.\n`,
      html:
        `<p>Hello ${escapeHtml(hello(owner))},</p><p>Someone (perhaps you) tried to create a GangSheet Studio account with this e-mail address. ` +
        `You already have an account (username <b>${escapeHtml(owner.username)}</b>).</p><p><a href="${appUrl}/auth/signin">Sign in</a> · ` +
        `<a href="${appUrl}/auth/forgot-password">Reset your password</a></p><p>If it was not you, you can ignore this e-mail; nothing has changed.</p>`,
    };
  },

  /** The e-mail verification link (after sign-up, a login before verifying, or an address change). */
  verification(user: Person, link: string, ttlMs: number): MailContent {
    const hours = Math.round(ttlMs / 3600_000);
    return {
      subject: 'Verify your e-mail address',
      text:
        `Hello ${hello(user)},\n\nPlease confirm your e-mail address for GangSheet Studio by opening this link:\n\n${link}\n\n` +
        `The link works once and expires in ${hours} hours.\n`,
      html: `<p>Hello ${escapeHtml(hello(user))},</p><p>Please confirm your e-mail address for GangSheet Studio:</p><p><a href="${link}">Verify e-mail</a></p><p>The link works once and expires in ${hours} hours.</p>`,
    };
  },

  /** The password reset code (typed into the form, or the link fills it in). */
  resetCode(code: string, link: string, ttlMs: number): MailContent {
    const minutes = Math.round(ttlMs / 60_000);
    return {
      subject: 'Your password reset code',
      text: `Your GangSheet Studio password reset code is:\n\n${code}\n\nEnter it on the Update Password form, or open ${link}\n\nThe code works once and expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail.\n`,
      html: `<p>Your GangSheet Studio password reset code is:</p><p style="font-size:20px;font-weight:bold;letter-spacing:2px">${code}</p><p>Enter it on the Update Password form, or <a href="${link}">open this link</a>.</p><p>The code works once and expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail.</p>`,
    };
  },

  /** A print's sheets are ready to download; `print` names it as the app does ("Print 1A2B3C4D"). */
  printReady(user: Person, print: string, link: string, retentionDays: number): MailContent {
    return {
      subject: `${print} is ready`,
      text: `Hello ${hello(user)},\n\nthe gang sheets of ${print} are ready to download:\n${link}\n\nThe files are kept for ${retentionDays} days.\n`,
      html: `<p>Hello ${escapeHtml(hello(user))},</p><p>the gang sheets of ${escapeHtml(print)} are ready to download:</p><p><a href="${link}">Open ${escapeHtml(print)}</a></p><p>The files are kept for ${retentionDays} days.</p>`,
    };
  },

  /** Processing a print failed for good; its credits were refunded. */
  printFailed(user: Person, print: string, error: string, link: string): MailContent {
    return {
      subject: `${print} could not be processed`,
      text: `Hello ${hello(user)},\n\nprocessing ${print} failed: ${error}\nThe credits were refunded. Open the print to fix it and try again:\n${link}\n`,
      html: `<p>Hello ${escapeHtml(hello(user))},</p><p>processing ${escapeHtml(print)} failed: ${escapeHtml(error)}</p><p>The credits were refunded. <a href="${link}">Open ${escapeHtml(print)}</a> to fix it and try again.</p>`,
    };
  },

  /** A short security notice (password changed, e-mail changed): the paragraphs as text and HTML. */
  notice(subject: string, paragraphs: string[]): MailContent {
    return { subject, text: paragraphs.join('\n\n') + '\n', html: paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('') };
  },
};
