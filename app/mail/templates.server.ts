import type { Locale } from '#app/i18n/locales'

/**
 * The account mails the local platform sends itself (on Supabase, Supabase
 * sends its own from supabase/templates). Each language is written natively,
 * in the same register as the app's interface (locales/*: informal "du",
 * "tú", "sen"), and kept here rather than in locales/* because mails are
 * rendered on the server only and never ship to the browser.
 */

export type MailTemplate = 'confirm-signup' | 'reset-password' | 'totp-enabled' | 'totp-disabled'

export interface RenderedMail {
	subject: string
	text: string
	html: string
}

interface LinkMailStrings {
	subject: string
	heading: string
	body: string
	action: string
	/** How long the link works; tells the reader why an old link fails. */
	validity: string
	/** Why someone who did not ask for this mail can ignore it. */
	ignore: string
}

interface NoticeMailStrings {
	subject: string
	heading: string
	body: string
	/** What to do if it was not the reader who changed the setting. */
	warning: string
}

interface MailStrings {
	'confirm-signup': LinkMailStrings
	'reset-password': LinkMailStrings
	'totp-enabled': NoticeMailStrings
	'totp-disabled': NoticeMailStrings
	/** Shown under the button for mail clients that do not render it. */
	'link-fallback': string
	footer: string
}

/** Validity of the links, as the auth layer configures them (app/modules/account/backends/better-auth/better-auth.server.ts). */
export const CONFIRMATION_LINK_HOURS = 24
export const RESET_LINK_HOURS = 1

const MAIL_STRINGS: Record<Locale, MailStrings> = {
	en: {
		'confirm-signup': {
			subject: 'Confirm your Dareboost account',
			heading: 'Welcome to Dareboost!',
			body: 'Please confirm your e-mail address to finish creating your account.',
			action: 'Confirm e-mail address',
			validity: `The link is valid for ${CONFIRMATION_LINK_HOURS} hours.`,
			ignore: 'If you did not sign up for Dareboost, you can ignore this e-mail: no account will be created.',
		},
		'reset-password': {
			subject: 'Reset your Dareboost password',
			heading: 'Choose a new password',
			body: 'We received a request to reset the password of your Dareboost account.',
			action: 'Choose a new password',
			validity: `The link is valid for ${RESET_LINK_HOURS} hour and can be used once.`,
			ignore: 'If you did not ask for this, you can ignore this e-mail: your password stays as it is.',
		},
		'totp-enabled': {
			subject: 'Two-factor authentication is now on',
			heading: 'Two-factor authentication is on',
			body: 'Two-factor authentication has been turned on for your Dareboost account. From now on, signing in asks for a code from your authenticator app. Keep your recovery codes somewhere safe: each of them works once if you lose your phone.',
			warning: 'If this was not you, reset your password straight away and check your account settings.',
		},
		'totp-disabled': {
			subject: 'Two-factor authentication is now off',
			heading: 'Two-factor authentication is off',
			body: 'Two-factor authentication has been turned off for your Dareboost account. Signing in no longer asks for a code from your authenticator app.',
			warning: 'If this was not you, reset your password straight away and turn two-factor authentication back on in your account settings.',
		},
		'link-fallback': 'If the button does not work, copy this link into your browser:',
		footer: 'You are receiving this e-mail because of your Dareboost account.',
	},
	de: {
		'confirm-signup': {
			subject: 'Bestätige dein Dareboost-Konto',
			heading: 'Willkommen bei Dareboost!',
			body: 'Bitte bestätige deine E-Mail-Adresse, damit wir dein Konto fertig einrichten können.',
			action: 'E-Mail-Adresse bestätigen',
			validity: `Der Link ist ${CONFIRMATION_LINK_HOURS} Stunden lang gültig.`,
			ignore: 'Falls du dich nicht bei Dareboost registriert hast, kannst du diese E-Mail einfach ignorieren – es wird kein Konto angelegt.',
		},
		'reset-password': {
			subject: 'Setze dein Dareboost-Passwort zurück',
			heading: 'Wähle ein neues Passwort',
			body: 'Wir haben eine Anfrage erhalten, das Passwort deines Dareboost-Kontos zurückzusetzen.',
			action: 'Neues Passwort wählen',
			validity: `Der Link ist ${RESET_LINK_HOURS} Stunde lang gültig und funktioniert nur einmal.`,
			ignore: 'Falls du das nicht angefordert hast, kannst du diese E-Mail ignorieren – dein Passwort bleibt unverändert.',
		},
		'totp-enabled': {
			subject: 'Die Zwei-Faktor-Authentifizierung ist jetzt aktiv',
			heading: 'Zwei-Faktor-Authentifizierung ist aktiv',
			body: 'Für dein Dareboost-Konto wurde die Zwei-Faktor-Authentifizierung eingeschaltet. Ab sofort fragen wir bei der Anmeldung nach einem Code aus deiner Authenticator-App. Bewahre deine Wiederherstellungscodes sicher auf: Jeder davon funktioniert einmal, falls du dein Handy verlierst.',
			warning: 'Falls du das nicht warst, setze sofort dein Passwort zurück und prüfe deine Kontoeinstellungen.',
		},
		'totp-disabled': {
			subject: 'Die Zwei-Faktor-Authentifizierung ist jetzt aus',
			heading: 'Zwei-Faktor-Authentifizierung ist aus',
			body: 'Für dein Dareboost-Konto wurde die Zwei-Faktor-Authentifizierung ausgeschaltet. Bei der Anmeldung fragen wir nicht mehr nach einem Code aus deiner Authenticator-App.',
			warning: 'Falls du das nicht warst, setze sofort dein Passwort zurück und schalte die Zwei-Faktor-Authentifizierung in deinen Kontoeinstellungen wieder ein.',
		},
		'link-fallback': 'Falls der Button nicht funktioniert, kopiere diesen Link in deinen Browser:',
		footer: 'Du erhältst diese E-Mail wegen deines Dareboost-Kontos.',
	},
	es: {
		'confirm-signup': {
			subject: 'Confirma tu cuenta de Dareboost',
			heading: '¡Te damos la bienvenida a Dareboost!',
			body: 'Confirma tu dirección de correo electrónico para terminar de crear tu cuenta.',
			action: 'Confirmar correo electrónico',
			validity: `El enlace es válido durante ${CONFIRMATION_LINK_HOURS} horas.`,
			ignore: 'Si no te has registrado en Dareboost, puedes ignorar este correo: no se creará ninguna cuenta.',
		},
		'reset-password': {
			subject: 'Restablece tu contraseña de Dareboost',
			heading: 'Elige una contraseña nueva',
			body: 'Hemos recibido una solicitud para restablecer la contraseña de tu cuenta de Dareboost.',
			action: 'Elegir una contraseña nueva',
			validity: `El enlace es válido durante ${RESET_LINK_HOURS} hora y solo se puede usar una vez.`,
			ignore: 'Si no lo has pedido tú, puedes ignorar este correo: tu contraseña no cambiará.',
		},
		'totp-enabled': {
			subject: 'La verificación en dos pasos está activada',
			heading: 'Verificación en dos pasos activada',
			body: 'Se ha activado la verificación en dos pasos en tu cuenta de Dareboost. A partir de ahora, al iniciar sesión te pediremos un código de tu aplicación de autenticación. Guarda tus códigos de recuperación en un lugar seguro: cada uno sirve una vez si pierdes el móvil.',
			warning: 'Si no has sido tú, restablece tu contraseña cuanto antes y revisa la configuración de tu cuenta.',
		},
		'totp-disabled': {
			subject: 'La verificación en dos pasos está desactivada',
			heading: 'Verificación en dos pasos desactivada',
			body: 'Se ha desactivado la verificación en dos pasos en tu cuenta de Dareboost. Al iniciar sesión ya no te pediremos un código de tu aplicación de autenticación.',
			warning: 'Si no has sido tú, restablece tu contraseña cuanto antes y vuelve a activar la verificación en dos pasos en la configuración de tu cuenta.',
		},
		'link-fallback': 'Si el botón no funciona, copia este enlace en tu navegador:',
		footer: 'Recibes este correo por tu cuenta de Dareboost.',
	},
	tr: {
		'confirm-signup': {
			subject: 'Dareboost hesabını doğrula',
			heading: "Dareboost'a hoş geldin!",
			body: 'Hesabını oluşturmayı tamamlamak için lütfen e-posta adresini doğrula.',
			action: 'E-posta adresini doğrula',
			validity: `Bağlantı ${CONFIRMATION_LINK_HOURS} saat boyunca geçerlidir.`,
			ignore: "Dareboost'a kaydolmadıysan bu e-postayı yok sayabilirsin; herhangi bir hesap oluşturulmaz.",
		},
		'reset-password': {
			subject: 'Dareboost şifreni sıfırla',
			heading: 'Yeni bir şifre belirle',
			body: 'Dareboost hesabının şifresini sıfırlamak için bir istek aldık.',
			action: 'Yeni şifre belirle',
			validity: `Bağlantı ${RESET_LINK_HOURS} saat boyunca geçerlidir ve yalnızca bir kez kullanılabilir.`,
			ignore: 'Bu isteği sen yapmadıysan bu e-postayı yok sayabilirsin; şifren değişmeden kalır.',
		},
		'totp-enabled': {
			subject: 'İki adımlı doğrulama açıldı',
			heading: 'İki adımlı doğrulama açık',
			body: 'Dareboost hesabında iki adımlı doğrulama açıldı. Bundan sonra giriş yaparken doğrulama uygulamandaki kod sorulacak. Kurtarma kodlarını güvenli bir yerde sakla: telefonunu kaybedersen her biri bir kez işe yarar.',
			warning: 'Bunu sen yapmadıysan hemen şifreni sıfırla ve hesap ayarlarını kontrol et.',
		},
		'totp-disabled': {
			subject: 'İki adımlı doğrulama kapatıldı',
			heading: 'İki adımlı doğrulama kapalı',
			body: 'Dareboost hesabında iki adımlı doğrulama kapatıldı. Giriş yaparken artık doğrulama uygulamandaki kod sorulmayacak.',
			warning: 'Bunu sen yapmadıysan hemen şifreni sıfırla ve hesap ayarlarından iki adımlı doğrulamayı yeniden aç.',
		},
		'link-fallback': 'Düğme çalışmazsa bu bağlantıyı tarayıcına kopyala:',
		footer: 'Bu e-postayı Dareboost hesabın nedeniyle alıyorsun.',
	},
}

export type MailParams<K extends MailTemplate> = K extends 'confirm-signup' | 'reset-password' ? { url: string } : Record<string, never>

/** Subject, plain text and HTML of one account mail in one language. */
export function renderMail<K extends MailTemplate>(template: K, locale: Locale, params: MailParams<K>): RenderedMail {
	const strings = MAIL_STRINGS[locale]
	const kind: MailTemplate = template
	switch (kind) {
		case 'confirm-signup':
		case 'reset-password':
			return renderLinkMail(strings[kind], (params as { url: string }).url, strings, locale)
		case 'totp-enabled':
		case 'totp-disabled':
			return renderNoticeMail(strings[kind], strings, locale)
	}
}

function renderLinkMail(s: LinkMailStrings, url: string, common: MailStrings, locale: Locale): RenderedMail {
	const text = [s.heading, '', s.body, '', `${s.action}: ${url}`, '', s.validity, s.ignore, '', '--', common.footer].join('\n')
	const html = layout(
		locale,
		s.subject,
		[
			`<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(s.heading)}</h1>`,
			`<p>${escapeHtml(s.body)}</p>`,
			`<p style="margin:24px 0"><a href="${escapeHtml(url)}" style="background:#7c3aed;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block;font-weight:600">${escapeHtml(s.action)}</a></p>`,
			`<p>${escapeHtml(s.validity)}</p>`,
			`<p style="color:#555555;font-size:13px">${escapeHtml(common['link-fallback'])}<br><a href="${escapeHtml(url)}" style="color:#555555;word-break:break-all">${escapeHtml(url)}</a></p>`,
			`<p style="color:#555555;font-size:13px">${escapeHtml(s.ignore)}</p>`,
		],
		common.footer,
	)
	return { subject: s.subject, text, html }
}

function renderNoticeMail(s: NoticeMailStrings, common: MailStrings, locale: Locale): RenderedMail {
	const text = [s.heading, '', s.body, '', s.warning, '', '--', common.footer].join('\n')
	const html = layout(
		locale,
		s.subject,
		[
			`<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(s.heading)}</h1>`,
			`<p>${escapeHtml(s.body)}</p>`,
			`<p><strong>${escapeHtml(s.warning)}</strong></p>`,
		],
		common.footer,
	)
	return { subject: s.subject, text, html }
}

/** The frame every mail of the app shares (also the moderation mails: app/modules/moderation). */
export function layout(locale: Locale, title: string, blocks: string[], footer: string): string {
	return [
		'<!doctype html>',
		`<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head>`,
		'<body style="margin:0;padding:24px;background:#f5f5f7;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#111111;line-height:1.5">',
		'<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">',
		'<p style="font-weight:700;font-size:18px;margin:0 0 24px">Dareboost</p>',
		...blocks,
		`<hr style="border:none;border-top:1px solid #e5e5e5;margin:24px 0"><p style="color:#777777;font-size:12px;margin:0">${escapeHtml(footer)}</p>`,
		'</div></body></html>',
	].join('\n')
}

export function escapeHtml(value: string): string {
	return value
		.replaceAll('&', '&amp;')
		.replaceAll('<', '&lt;')
		.replaceAll('>', '&gt;')
		.replaceAll('"', '&quot;')
		.replaceAll("'", '&#39;')
}
