import { data } from 'react-router'
import { redirectWithError, redirectWithSuccess } from 'remix-toast'
import type { Route } from './+types/auth-create'
import { translateError } from '#app/i18n/errors'
import { toAppError } from '#app/db/database.server'
import { getInstance } from '#app/i18n/i18next.server'
import { backTo, postOnly, readBody, requireViewer } from '#app/modules/account/api.server'
import { UsernameSchema } from '#app/modules/account/schemas'
import { queryAsViewer } from '#app/utils/db.server'
import { wantsJson } from '#app/utils/http'

/** POST /api/auth/create {username}: the complete-sign-up step. */
export async function action({ request, context }: Route.ActionArgs) {
	requireViewer(context)
	const body = await readBody(request)
	const { t } = getInstance(context)
	const back = backTo(context, body)
	const parsed = UsernameSchema.safeParse(body.username ?? '')
	const fail = (code: string, status: number) =>
		wantsJson(request) ? data({ error: code }, { status }) : redirectWithError(back, translateError(t, code))
	if (!parsed.success) return fail(parsed.error.issues[0]?.message ?? 'validation.username-invalid', 400)
	try {
		await queryAsViewer(context, (tx) =>
			tx.query(
				`insert into public.profiles (id, username) values (auth.uid(), $1)
				 on conflict (id) do update set username = excluded.username`,
				[parsed.data],
			),
		)
	} catch (error) {
		const appError = toAppError(error)
		if (!appError) throw error
		return fail(appError.code, 409)
	}
	return wantsJson(request)
		? data({ username: parsed.data })
		: redirectWithSuccess(back, t('account.complete-success', { username: parsed.data }))
}

export const loader = postOnly
