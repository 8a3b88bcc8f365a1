/** A real SMTP server on loopback that keeps what it receives (mail-catcher.js). */
export interface CaughtMail {
	to: string[]
	subject: string
	text: string
	html: string
	/** Every http(s) link of the plain-text part, in order. */
	links: string[]
}

export interface MailCatcher {
	smtpUrl: string
	mails: CaughtMail[]
	/** The next mail to `to` that arrives after `since` mails were already seen (waits up to 15 s). */
	waitFor(to: string, since?: number): Promise<CaughtMail>
	mailsTo(to: string): CaughtMail[]
	close(): Promise<void>
}

export function startMailCatcher(): Promise<MailCatcher>
