import { data } from 'react-router'
import { redirectWithError, redirectWithInfo } from 'remix-toast'
import type { Route } from './+types/auth-consent'
import { translateError } from '#app/i18n/errors'
import { toAppError } from '#app/db/database.server'
import { getInstance } from '#app/i18n/i18next.server'
import { backTo, postOnly, readBody, requireViewer } from '#app/modules/account/api.server'
import { queryAsViewer } from '#app/utils/db.server'
import { wantsJson } from '#app/utils/http'

/** POST /api/auth/consent {type, version, intent}: record (or decline) a document's version. */
export async function action({ request, context }: Route.ActionArgs) {
	requireViewer(context)
	const body = await readBody(request)
	const { t } = getInstance(context)
	const back = backTo(context, body)
	if (body.intent === 'decline') {
		// Nothing is recorded: the dialog comes back. The toast offers account
		// deletion (docs/product.md §2.7), which without JavaScript is a link to the
		// dialog's delete-account disclosure.
		return wantsJson(request)
			? data({ declined: true })
			: redirectWithError(back, { message: t('account.terms-declined'), action: 'delete-account' })
	}
	try {
		await queryAsViewer(context, (tx) => tx.query('select public.give_consent($1, $2)', [body.type ?? '', body.version ?? '']))
	} catch (error) {
		const appError = toAppError(error)
		if (!appError) throw error
		return wantsJson(request) ? data({ error: appError.code }, { status: 400 }) : redirectWithError(back, translateError(t, appError.code))
	}
	return wantsJson(request) ? data({ accepted: true }) : redirectWithInfo(back, t('account.terms-accepted'))
}

export const loader = postOnly
