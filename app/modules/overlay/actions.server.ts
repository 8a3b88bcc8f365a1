import type { RouterContextProvider } from 'react-router'
import { redirectWithError, redirectWithSuccess } from 'remix-toast'
import { translateError } from '#app/i18n/errors'
import { toAppError } from '#app/db/database.server'
import { getInstance } from '#app/i18n/i18next.server'
import { requireViewer } from '#app/modules/account/require-viewer.server'
import { queryAsViewer } from '#app/utils/db.server'
import { regenerateOverlayKey } from './service.server'

/** The creator replaces their session's overlay key (the session page's form); the database checks who asks. */
export async function overlayAction(request: Request, context: Readonly<RouterContextProvider>, formData: FormData) {
	requireViewer(request, context)
	const { t, language } = getInstance(context)
	const back = new URL(request.url).pathname
	const sessionId = String(formData.get('sessionId') ?? '')
	try {
		await queryAsViewer(context, (tx) => regenerateOverlayKey(tx, sessionId))
	} catch (error) {
		const appError = toAppError(error)
		if (!appError) console.error('overlay key failed', error)
		return redirectWithError(back, translateError(t, appError?.code ?? 'error-overlay-failed', language))
	}
	return redirectWithSuccess(back, t('overlay.regenerated'))
}
