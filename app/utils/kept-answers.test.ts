import { expect, test } from 'vitest'
import { keptAnswers } from './kept-answers'

test('an answer is computed once per key, null included; past the limit the one asked least recently is computed again', () => {
	const asked: string[] = []
	const answer = keptAnswers(2, (key: string) => key, (key) => {
		asked.push(key)
		return key === 'none' ? null : key.toUpperCase()
	})
	expect([answer('a'), answer('a'), answer('none'), answer('none')]).toEqual(['A', 'A', null, null])
	expect(asked).toEqual(['a', 'none'])
	answer('a') // a is now the most recent: none goes when b comes
	answer('b')
	answer('a')
	answer('none')
	expect(asked).toEqual(['a', 'none', 'b', 'none'])
})
