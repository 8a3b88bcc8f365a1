import type { Locale } from '#app/i18n/locales'
import { renderMail, type MailParams, type MailTemplate } from '#app/mail/templates.server'
import type { MailAdapter } from '#app/platform/types'
import type { BackgroundTasks } from './background.server'

/**
 * The account mails, rendered in the reader's language and handed to the
 * platform's mail adapter (SMTP, or the development mailbox) in the
 * background. The links point at the app's own pages, which call back into
 * AccountService with what the link carries:
 *
 *   /{lang}/confirm?token=...&redirect-to=/path        -> confirmEmail(request)
 *   /{lang}/password-reset?changePassword=true&token=... -> resetPassword({ token, password })
 */
export class AccountMails {
	readonly #appUrl: string
	readonly #mail: MailAdapter
	readonly #background: BackgroundTasks

	constructor(appUrl: string, mail: MailAdapter, background: BackgroundTasks) {
		this.#appUrl = appUrl.replace(/\/+$/, '')
		this.#mail = mail
		this.#background = background
	}

	confirmationLink(locale: Locale, token: string, redirectTo: string): string {
		const url = new URL(`${this.#appUrl}/${locale}/confirm`)
		url.searchParams.set('token', token)
		url.searchParams.set('redirect-to', redirectTo)
		return url.toString()
	}

	resetLink(locale: Locale, token: string): string {
		const url = new URL(`${this.#appUrl}/${locale}/password-reset`)
		url.searchParams.set('changePassword', 'true')
		url.searchParams.set('token', token)
		return url.toString()
	}

	sendConfirmation(to: string, locale: Locale, token: string, redirectTo: string): void {
		this.#send(to, locale, 'confirm-signup', { url: this.confirmationLink(locale, token, redirectTo) })
	}

	sendReset(to: string, locale: Locale, token: string): void {
		this.#send(to, locale, 'reset-password', { url: this.resetLink(locale, token) })
	}

	sendTotpChanged(to: string, locale: Locale, enabled: boolean): void {
		this.#send(to, locale, enabled ? 'totp-enabled' : 'totp-disabled', {})
	}

	#send<K extends MailTemplate>(to: string, locale: Locale, template: K, params: MailParams<K>): void {
		const rendered = renderMail(template, locale, params)
		this.#background.run(() => this.#mail.send({ to, kind: template, ...rendered }), `sending the ${template} mail`)
	}
}
