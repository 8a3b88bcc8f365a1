import { parseWithZod } from '@conform-to/zod/v4'
import { data, type RouterContextProvider } from 'react-router'
import { redirectWithSuccess } from 'remix-toast'
import { encode } from 'uqr'
import { servicesContext } from '#app/context.server'
import { getInstance } from '#app/i18n/i18next.server'
import { refusalStatus } from '#app/utils/refusal.server'
import { TOTP_CONFIRM_INTENT, TOTP_DISABLE_INTENT, TotpConfirmSchema, TotpPasswordSchema, type TotpSetup } from './two-factor'

/** Longer than any otpauth URI the platforms make (issuer, address, 32-character key). */
const OTPAUTH_URI_MAX = 512

/**
 * The QR code of the otpauth URI as one SVG path, one rectangle per run of
 * dark modules in a row, with the quiet zone the standard asks for. Drawn here
 * so it shows without JavaScript and the encoder never reaches the browser
 * (docs/decisions/016-settings-qr-code-and-flash-toasts.md).
 */
export function qrCodePath(text: string): TotpSetup['qr'] {
	const { data: modules, size } = encode(text, { ecc: 'M', border: 4 })
	let path = ''
	modules.forEach((row, y) => {
		let x = 0
		while (x < size) {
			if (!row[x]) {
				x++
				continue
			}
			const start = x
			while (x < size && row[x]) x++
			path += `M${start} ${y}h${x - start}v1h${start - x}z`
		}
	})
	return { size, path }
}

function setupOf(uri: string, secret: string, recoveryCodes: string[]): TotpSetup | null {
	if (!uri.startsWith('otpauth://') || uri.length > OTPAUTH_URI_MAX) return null
	return { uri, secret, recoveryCodes, qr: qrCodePath(uri) }
}

/**
 * The two-factor forms. A wrong password here is the password field's error
 * (the account service says error-wrong-password; this form has no address).
 */
export async function changeTwoFactor(
	request: Request,
	formData: FormData,
	context: Readonly<RouterContextProvider>,
	{ here, intent }: { here: string; intent: string },
) {
	const { accounts } = context.get(servicesContext).platform
	const { t } = getInstance(context)
	const rejection = (error: string) =>
		error === 'error-wrong-password' || error === 'error-invalid-credentials'
			? { fieldErrors: { password: ['error-wrong-password'] } }
			: { formErrors: [error] }

	if (intent === TOTP_CONFIRM_INTENT) {
		const submission = parseWithZod(formData, { schema: TotpConfirmSchema })
		const setup = setupOf(String(formData.get('uri') ?? ''), String(formData.get('secret') ?? ''), formData.getAll('recoveryCodes').map(String))
		if (!setup) throw data(null, { status: 400 })
		if (submission.status !== 'success') return data({ intent, result: submission.reply(), setup }, { status: refusalStatus(request, 400) })
		const result = await accounts.confirmTotpEnrollment(request, submission.value)
		if (!result.ok) {
			return data(
				{ intent, result: submission.reply({ formErrors: [result.error.code], hideFields: ['code'] }), setup },
				{ status: refusalStatus(request, result.error.status), headers: result.headers },
			)
		}
		return redirectWithSuccess(here, t('settings.totp-enabled'), { headers: result.headers })
	}

	const submission = parseWithZod(formData, { schema: TotpPasswordSchema })
	if (submission.status !== 'success') {
		return data({ intent, result: submission.reply({ hideFields: ['password'] }), setup: null }, { status: refusalStatus(request, 400) })
	}
	if (intent === TOTP_DISABLE_INTENT) {
		const result = await accounts.disableTotp(request, submission.value)
		if (!result.ok) {
			return data(
				{ intent, result: submission.reply({ ...rejection(result.error.code), hideFields: ['password'] }), setup: null },
				{ status: refusalStatus(request, result.error.status), headers: result.headers },
			)
		}
		return redirectWithSuccess(here, t('settings.totp-disabled'), { headers: result.headers })
	}
	const result = await accounts.enrollTotp(request, submission.value)
	if (!result.ok) {
		return data(
			{ intent, result: submission.reply({ ...rejection(result.error.code), hideFields: ['password'] }), setup: null },
			{ status: refusalStatus(request, result.error.status), headers: result.headers },
		)
	}
	const setup = setupOf(result.data.uri, result.data.secret, result.data.recoveryCodes)
	return data({ intent, result: null, setup }, { headers: result.headers })
}
