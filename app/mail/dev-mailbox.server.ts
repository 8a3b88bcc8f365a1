import { asServiceRole } from '#app/db/as-user.server'
import type { Database } from '#app/db/database.server'
import type { Mail, MailAdapter } from '#app/platform/types'

export interface StoredMail {
	id: number
	sentAt: string
	kind: string
	recipient: string
	subject: string
	textBody: string
	htmlBody: string
}

/**
 * The embedded default's mailbox (no SMTP configured): mails are kept in the
 * database (supabase/local-shim/900_dev_mailbox.sql), so every app instance
 * sees the same mailbox. Service-role work: the mailbox is not product data.
 */
export function createDevMailbox(db: Database): MailAdapter & { list(limit?: number): Promise<StoredMail[]> } {
	return {
		transport: 'dev-mailbox',
		async send(mail: Mail) {
			await asServiceRole(db, (tx) =>
				tx.query(
					'insert into local_dev.mailbox (kind, recipient, subject, text_body, html_body) values ($1, $2, $3, $4, $5)',
					[mail.kind, mail.to, mail.subject, mail.text, mail.html],
				),
			)
		},
		async list(limit = 50) {
			const { rows } = await asServiceRole(db, (tx) =>
				tx.query<{
					id: number
					sent_at: Date
					kind: string
					recipient: string
					subject: string
					text_body: string
					html_body: string
				}>(
					'select id, sent_at, kind, recipient, subject, text_body, html_body from local_dev.mailbox order by id desc limit $1',
					[limit],
				),
			)
			return rows.map((r) => ({
				id: Number(r.id),
				sentAt: new Date(r.sent_at).toISOString(),
				kind: r.kind,
				recipient: r.recipient,
				subject: r.subject,
				textBody: r.text_body,
				htmlBody: r.html_body,
			}))
		},
	}
}
