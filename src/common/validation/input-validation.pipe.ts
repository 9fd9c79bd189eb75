import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { InputClass, validateInput } from './validate-input';

/**
 * Validates every controller argument whose type is an input class (a DTO with
 * class-validator rules), with the same function MCP tools use.
 */
@Injectable()
export class InputValidationPipe implements PipeTransform {
  private readonly inputClasses = new WeakMap<object, boolean>();

  async transform(value: unknown, metadata: ArgumentMetadata) {
    const type = metadata.metatype;
    if (!type || !this.isInputClass(type)) return value;
    const what = metadata.type === 'body' ? 'request body' : metadata.type === 'query' ? 'query' : 'path';
    return validateInput(type as InputClass<object>, value, what);
  }

  private isInputClass(type: unknown): boolean {
    if (typeof type !== 'function') return false;
    let known = this.inputClasses.get(type);
    if (known === undefined) {
      known = getMetadataStorage().getTargetValidationMetadatas(type, '', true, false).length > 0;
      this.inputClasses.set(type, known);
    }
    return known;
  }
}
