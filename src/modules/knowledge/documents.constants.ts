import { PROJECT_FILE_MAX_CHARS } from '../projects/project-extras.constants';

/** An upload is stored as a project file, so it is held to a file's size (bytes, so that multibyte text cannot pass the cap). */
export const UPLOAD_MAX_BYTES = PROJECT_FILE_MAX_CHARS;
export const UPLOAD_TYPES = ['text/plain', 'text/markdown', 'text/x-markdown'];
/** C0 controls other than tab, line feed, form feed and carriage return: never in a text document. */
export const BINARY_CHARS = /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/;
