// Owns the Reflect metadata shim that @peculiar/x509 needs. Its dependency tsyringe refuses to load unless
// `Reflect.getMetadata` exists, and the package leaves choosing a polyfill to the application; none is
// installed here. tsyringe only calls getMetadata, getOwnMetadata and defineMetadata (no decorators of ours
// run), so this keeps them in a WeakMap. Import it before @peculiar/x509. If the project later installs
// `reflect-metadata`, import that instead and delete this file.
type Key = unknown;
const store = new WeakMap<object, Map<Key, unknown>>();

const R = Reflect as typeof Reflect & {
  getMetadata?: (key: Key, target: object) => unknown;
  getOwnMetadata?: (key: Key, target: object) => unknown;
  defineMetadata?: (key: Key, value: unknown, target: object) => void;
};

if (!R.getMetadata) {
  R.defineMetadata = (key, value, target) => {
    let m = store.get(target);
    if (!m) store.set(target, (m = new Map()));
    m.set(key, value);
  };
  R.getOwnMetadata = (key, target) => store.get(target)?.get(key);
  R.getMetadata = (key, target) => {
    for (let t: object | null = target; t; t = Object.getPrototypeOf(t) as object | null) {
      const m = store.get(t);
      if (m?.has(key)) return m.get(key);
    }
    return undefined;
  };
}
