import { describe, expect, it } from 'vitest';
import { createDraftStore, draftKey, parseDraft, serialiseDraft } from './form-drafts';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe('form drafts', () => {
  it('keeps only the listed fields, and never a secret', () => {
    const fields = ['name', 'email', 'password'] as const;
    const json = serialiseDraft(
      { name: 'Ada', email: 'ada@example.com', password: 'hunter2hunter2', other: 'x' },
      fields,
    );
    expect(JSON.parse(json)).toEqual({ name: 'Ada', email: 'ada@example.com' });
    expect(
      serialiseDraft({ number: '4242', cvc: '123', code: '123456' }, ['number', 'cvc', 'code']),
    ).toBe('{}');
  });

  it('reads back listed string fields and ignores anything malformed', () => {
    expect(
      parseDraft('{"name":"Ada","email":3,"password":"x"}', ['name', 'email', 'password']),
    ).toEqual({ name: 'Ada' });
    expect(parseDraft('not json', ['name'])).toBeNull();
    expect(parseDraft('[1]', ['name'])).toBeNull();
    expect(parseDraft(null, ['name'])).toBeNull();
  });

  it('stores under a prefixed key and clears it', () => {
    const storage = memoryStorage();
    const store = createDraftStore(storage);
    store.write('signup', ['name', 'email'], { name: 'Ada', email: 'a@b.co', password: 'secret' });
    expect([...storage.items.keys()]).toEqual([draftKey('signup')]);
    expect(storage.items.get(draftKey('signup'))).not.toContain('secret');
    expect(store.read('signup', ['name', 'email'])).toEqual({ name: 'Ada', email: 'a@b.co' });
    store.clear('signup');
    expect(store.read('signup', ['name'])).toBeNull();
  });

  it('falls back to memory when the storage refuses', () => {
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    const store = createDraftStore(refusing);
    store.write('signin', ['email'], { email: 'a@b.co' });
    expect(store.read('signin', ['email'])).toEqual({ email: 'a@b.co' });
    expect(createDraftStore(null).raw('signin')).toBeNull();
  });
});
