/**
 * Named extensions of one kind (context sections, session close hooks, tool-call observers, ...),
 * kept in the order they were registered. Modules register theirs while the application boots, so
 * a name taken twice is a wiring mistake: it is refused on the spot, and the application does not
 * start, rather than one extension silently replacing another.
 *
 * Each extension point is a small named subclass that says what its extensions are called and
 * how they are run.
 */
export class ExtensionRegistry<T> implements Iterable<[string, T]> {
  private readonly extensions = new Map<string, T>();

  /** @param kind what one extension of this point is called in errors ("context section"). */
  constructor(private readonly kind: string) {}

  register(name: string, extension: T): void {
    if (this.extensions.has(name)) {
      throw new Error(`${this.kind} "${name}" is registered twice: each ${this.kind} needs a name of its own`);
    }
    this.extensions.set(name, extension);
  }

  /** Answers whether `name` was registered. */
  unregister(name: string): boolean {
    return this.extensions.delete(name);
  }

  get(name: string): T | undefined {
    return this.extensions.get(name);
  }

  get names(): string[] {
    return [...this.extensions.keys()];
  }

  /** Name and extension, in registration order. */
  [Symbol.iterator](): Iterator<[string, T]> {
    return this.extensions.entries();
  }

  /**
   * Calls every extension in registration order, each once the previous one has settled, and
   * answers the results under their names. Extensions of most points share the caller's
   * transaction, whose connection runs one statement at a time; and a failure must stop the run
   * and reach the caller, so that the transaction rolls back with none of the effects.
   */
  protected async runInOrder<R>(call: (extension: T, name: string) => Promise<R>): Promise<Map<string, R>> {
    const results = new Map<string, R>();
    for (const [name, extension] of this.extensions) results.set(name, await call(extension, name));
    return results;
  }
}
