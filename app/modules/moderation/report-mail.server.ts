import type { Locale } from '#app/i18n/locales'
import { escapeHtml, layout, type RenderedMail } from '#app/mail/templates.server'
import type { MailAdapter } from '#app/platform/types'
import type { ReportReason } from '#app/modules/dares/limits'

/**
 * The receipt of a report (docs/product.md §13.3; the terms' "Reporting a
 * dare": a receipt on screen and by e-mail), to the reporter's account
 * address or the one a visitor gave. Written natively in each language, in
 * the register of the app and the account mails (app/mail/templates.server.ts);
 * server-only, so kept here rather than in locales/*.
 */

interface ReceiptStrings {
	subject: (reference: string) => string
	heading: string
	body: string
	reference: string
	reason: string
	reasons: Record<ReportReason, string>
	/** What happens next, and that the moderators decide (not the creator). */
	next: string
	/** Why someone who did not send a report can ignore the mail (a visitor may type any address). */
	ignore: string
	footer: string
}

const RECEIPT: Record<Locale, ReceiptStrings> = {
	en: {
		subject: (reference) => `We received your report (${reference})`,
		heading: 'Thanks for your report',
		body: 'We received your report of a dare on Dareboost.',
		reference: 'Reference',
		reason: 'Reason',
		reasons: {
			hate: 'Hate',
			harassment: 'Harassment',
			sexual: 'Sexual content',
			violence: 'Violence or danger',
			illegal: 'Illegal content',
			spam: 'Spam',
			other: 'Other',
		},
		next: 'Our moderators will review it, not the creator of the session. We will write to you at this address once they have decided. Keep the reference: it identifies your report if you write to us about it.',
		ignore: 'If you did not send this report, you can ignore this e-mail.',
		footer: 'You are receiving this e-mail because a report was sent on Dareboost with this address.',
	},
	de: {
		subject: (reference) => `Wir haben deine Meldung erhalten (${reference})`,
		heading: 'Danke für deine Meldung',
		body: 'Wir haben deine Meldung zu einem Dare auf Dareboost erhalten.',
		reference: 'Referenz',
		reason: 'Grund',
		reasons: {
			hate: 'Hass',
			harassment: 'Belästigung',
			sexual: 'Sexuelle Inhalte',
			violence: 'Gewalt oder Gefahr',
			illegal: 'Rechtswidrige Inhalte',
			spam: 'Spam',
			other: 'Sonstiges',
		},
		next: 'Unsere Moderation prüft sie, nicht der Creator der Session. Sobald sie entschieden hat, schreiben wir dir an diese Adresse. Heb die Referenz auf: Daran erkennen wir deine Meldung, wenn du uns dazu schreibst.',
		ignore: 'Falls du diese Meldung nicht geschickt hast, kannst du diese E-Mail ignorieren.',
		footer: 'Du erhältst diese E-Mail, weil mit dieser Adresse eine Meldung auf Dareboost geschickt wurde.',
	},
	es: {
		subject: (reference) => `Hemos recibido tu denuncia (${reference})`,
		heading: 'Gracias por tu denuncia',
		body: 'Hemos recibido tu denuncia de un reto en Dareboost.',
		reference: 'Referencia',
		reason: 'Motivo',
		reasons: {
			hate: 'Odio',
			harassment: 'Acoso',
			sexual: 'Contenido sexual',
			violence: 'Violencia o peligro',
			illegal: 'Contenido ilegal',
			spam: 'Spam',
			other: 'Otro',
		},
		next: 'La revisará nuestro equipo de moderación, no el creador de la sesión. Te escribiremos a esta dirección en cuanto haya tomado una decisión. Guarda la referencia: identifica tu denuncia si nos escribes sobre ella.',
		ignore: 'Si no has enviado esta denuncia, puedes ignorar este correo.',
		footer: 'Recibes este correo porque se envió una denuncia en Dareboost con esta dirección.',
	},
	tr: {
		subject: (reference) => `Bildirimini aldık (${reference})`,
		heading: 'Bildirimin için teşekkürler',
		body: "Dareboost'taki bir meydan okuma hakkındaki bildirimini aldık.",
		reference: 'Referans',
		reason: 'Neden',
		reasons: {
			hate: 'Nefret',
			harassment: 'Taciz',
			sexual: 'Cinsel içerik',
			violence: 'Şiddet veya tehlike',
			illegal: 'Yasa dışı içerik',
			spam: 'Spam',
			other: 'Diğer',
		},
		next: 'Bildirimini yayıncı değil, moderasyon ekibimiz inceleyecek. Karar verildiğinde sana bu adresten yazacağız. Referansı sakla: Bize bu konuda yazarsan bildirimini onunla buluruz.',
		ignore: 'Bu bildirimi sen göndermediysen bu e-postayı yok sayabilirsin.',
		footer: "Bu e-postayı, Dareboost'ta bu adresle bir bildirim gönderildiği için alıyorsun.",
	},
}

/** The short reference a reporter is shown and mailed: the report id's first eight characters, upper case. */
export function reportReference(reportId: string): string {
	return reportId.replaceAll('-', '').slice(0, 8).toUpperCase()
}

/** Subject, plain text and HTML of the receipt in one language. */
export function renderReportReceipt(locale: Locale, input: { reference: string; reason: ReportReason }): RenderedMail {
	const s = RECEIPT[locale]
	const subject = s.subject(input.reference)
	const reason = s.reasons[input.reason]
	const text = [s.heading, '', s.body, '', `${s.reference}: ${input.reference}`, `${s.reason}: ${reason}`, '', s.next, '', s.ignore, '', '--', s.footer].join('\n')
	const html = layout(
		locale,
		subject,
		[
			`<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(s.heading)}</h1>`,
			`<p>${escapeHtml(s.body)}</p>`,
			`<p>${escapeHtml(s.reference)}: <strong>${escapeHtml(input.reference)}</strong><br>${escapeHtml(s.reason)}: ${escapeHtml(reason)}</p>`,
			`<p>${escapeHtml(s.next)}</p>`,
			`<p style="color:#555555;font-size:13px">${escapeHtml(s.ignore)}</p>`,
		],
		s.footer,
	)
	return { subject, text, html }
}

/** Sends the receipt through the platform's mail; a failure is the caller's to log (it never fails the report). */
export async function sendReportReceipt(mail: MailAdapter, to: string, locale: Locale, input: { reference: string; reason: ReportReason }): Promise<void> {
	await mail.send({ to, kind: 'report-receipt', ...renderReportReceipt(locale, input) })
}
