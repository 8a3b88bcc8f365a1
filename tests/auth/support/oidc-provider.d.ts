// The slice of oidc-provider (which ships no types) that the loopback
// identity provider in oidc.ts uses.
declare module 'oidc-provider' {
	import type { IncomingMessage, ServerResponse } from 'node:http'

	interface Grant {
		addOIDCScope(scope: string): void
		addOIDCClaims(claims: string[]): void
		addResourceScope(indicator: string, scope: string): void
		save(): Promise<string>
	}

	interface InteractionDetails {
		uid: string
		grantId?: string
		prompt: { name: string; details: Record<string, unknown> }
		params: Record<string, unknown>
		session?: { accountId?: string }
	}

	export default class Provider {
		constructor(issuer: string, configuration: Record<string, unknown>)
		callback(): (req: IncomingMessage, res: ServerResponse) => void
		interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>
		interactionFinished(
			req: IncomingMessage,
			res: ServerResponse,
			result: Record<string, unknown>,
			options?: { mergeWithLastSubmission?: boolean },
		): Promise<void>
		Grant: {
			new (init: { accountId: string; clientId: string }): Grant
			find(id: string): Promise<Grant | undefined>
		}
		AccessToken: { find(token: string): Promise<{ accountId: string; clientId: string } | undefined> }
		on(event: string, listener: (...args: unknown[]) => void): void
	}
}
