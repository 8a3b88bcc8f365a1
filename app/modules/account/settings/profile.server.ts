import { parseWithZod } from '@conform-to/zod/v4'
import { data, type RouterContextProvider } from 'react-router'
import { redirectWithSuccess } from 'remix-toast'
import { toAppError } from '#app/db/database.server'
import { getInstance } from '#app/i18n/i18next.server'
import { queryAsViewer } from '#app/utils/db.server'
import { USERNAME_INTENT, UsernameSettingsSchema } from './profile'

/** Saves the username: a rejected name answers 400 with the field's error, and changes nothing. */
export async function saveUsername(formData: FormData, context: Readonly<RouterContextProvider>, here: string) {
	const submission = parseWithZod(formData, { schema: UsernameSettingsSchema })
	if (submission.status !== 'success') {
		return data({ intent: USERNAME_INTENT, result: submission.reply(), setup: null }, { status: 400 })
	}
	const { username } = submission.value
	try {
		await queryAsViewer(context, (tx) =>
			tx.query(
				`insert into public.profiles (id, username) values (auth.uid(), $1)
				 on conflict (id) do update set username = excluded.username`,
				[username],
			),
		)
	} catch (error) {
		const appError = toAppError(error)
		if (!appError) throw error
		return data(
			{ intent: USERNAME_INTENT, result: submission.reply({ fieldErrors: { username: [appError.code] } }), setup: null },
			{ status: appError.code === 'error-username-taken' ? 409 : 400 },
		)
	}
	return redirectWithSuccess(here, getInstance(context).t('settings.username-saved', { username }))
}
