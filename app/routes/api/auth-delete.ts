import { data } from 'react-router'
import { redirectWithError, redirectWithSuccess } from 'remix-toast'
import type { Route } from './+types/auth-delete'
import { translateError } from '#app/i18n/errors'
import { servicesContext } from '#app/context.server'
import { getInstance, getLocale } from '#app/i18n/i18next.server'
import { backTo, postOnly, readBody, requireViewer } from '#app/modules/account/api.server'
import { failureMessage } from '#app/modules/account/messages'
import { wantsJson } from '#app/utils/http'

/**
 * POST /api/auth/delete {password | code}: the delete-account confirmation's
 * "Delete". A refusal goes back to the page the form was on, with the reason.
 */
export async function action({ request, context }: Route.ActionArgs) {
	requireViewer(context)
	const { accounts } = context.get(servicesContext).platform
	const { t } = getInstance(context)
	const body = await readBody(request)
	const result = await accounts.deleteAccount(request, { password: body.password, code: body.code })
	if (!result.ok) {
		return wantsJson(request)
			? data({ error: result.error.code, reasons: result.error.reasons ?? [] }, { status: result.error.status, headers: result.headers })
			: redirectWithError(backTo(context, body), translateError(t, failureMessage(result.error), getLocale(context)), { headers: result.headers })
	}
	const home = `/${getLocale(context)}`
	return wantsJson(request) ? data({ deleted: true }, { headers: result.headers }) : redirectWithSuccess(home, t('account.deleted'), { headers: result.headers })
}

export const loader = postOnly
