import type { Route } from './+types/dev-mailbox'
import { PageTitle } from '#app/components/page-title'
import { servicesContext } from '#app/context.server'
import { DEMO_PASSWORD, DEMO_USERS } from '#app/db/seed.server'
import { createDevMailbox } from '#app/mail/dev-mailbox.server'
import { isLocalRequest } from '#app/security/hosts.server'
import { requestSecurityContext } from '#app/security/request.server'
import { notFound } from '#app/utils/http'

/**
 * /dev/mailbox: the mails the embedded default would have sent, newest
 * first, so sign-up and password reset can be clicked through without a
 * mail server. A developer tool, in English, off unless DEV_MAILBOX, and
 * only for a client on this machine: judged by the TCP peer's address, never
 * by Host or X-Forwarded-For (the server's guard checks the same before
 * routing; this is the check that holds whatever path spelling reached here).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
	const { env, db, platform } = context.get(servicesContext)
	const { clientAddress } = context.get(requestSecurityContext)
	if (!env.DEV_MAILBOX || platform.mail.transport !== 'dev-mailbox' || !isLocalRequest(clientAddress, request.headers)) notFound(request)
	const mails = await createDevMailbox(db).list(50)
	// The demo accounts and their (public, development-only) password, where they can sign in.
	const demo = env.DEMO_DATA && platform.name === 'local' ? Object.values(DEMO_USERS).map((u) => ({ email: u.email, username: u.username })) : []
	return { mails, demo, demoPassword: demo.length > 0 ? DEMO_PASSWORD : null }
}

const URL_PATTERN = /(https?:\/\/[^\s<>"]+)/g

export default function DevMailbox({ loaderData }: Route.ComponentProps) {
	return (
		<article className="page mailbox">
			<PageTitle title="Development mailbox" />
			<h1>Development mailbox</h1>
			<p className="page__lead">No SMTP server is configured, so mails are kept here instead of being sent.</p>
			{loaderData.demo.length > 0 ? (
				<section className="card" aria-labelledby="demo-accounts">
					<h2 id="demo-accounts">Demo accounts</h2>
					<p>
						Sign in as any of them with the password <code>{loaderData.demoPassword}</code> (demo data only).
					</p>
					<ul>
						{loaderData.demo.map((u) => (
							<li key={u.email}>
								<code>{u.email}</code> ({u.username})
							</li>
						))}
					</ul>
				</section>
			) : null}
			{loaderData.mails.length === 0 ? (
				<p className="empty">No mails yet.</p>
			) : (
				<ol className="mailbox__list">
					{loaderData.mails.map((mail) => (
						<li key={mail.id} className="card">
							<p className="mailbox__meta">
								<time dateTime={mail.sentAt}>{mail.sentAt}</time> · {mail.kind} · to <strong>{mail.recipient}</strong>
							</p>
							<h2>{mail.subject}</h2>
							<p className="mailbox__body">
								{mail.textBody.split(URL_PATTERN).map((part, i) =>
									i % 2 === 1 ? (
										<a key={i} href={part}>
											{part}
										</a>
									) : (
										part
									),
								)}
							</p>
						</li>
					))}
				</ol>
			)}
		</article>
	)
}
