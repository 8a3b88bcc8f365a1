import nodemailer from 'nodemailer'
import type { Mail, MailAdapter } from '#app/platform/types'

/** Mail through any SMTP server (SMTP_URL, e.g. smtps://user:pass@smtp.example.com). */
export function createSmtpMailer(smtpUrl: string, from: string): MailAdapter {
	const transporter = nodemailer.createTransport(smtpUrl)
	return {
		transport: 'smtp',
		async send(mail: Mail) {
			await transporter.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html })
		},
	}
}
