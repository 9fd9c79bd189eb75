import { mapCodebase } from './codebase-map.util';

describe('codebase map', () => {
  test('each file belongs to its innermost package; the root takes the rest', () => {
    const map = mapCodebase([
      { path: 'pyproject.toml' },
      { path: 'pkg/__main__.py', size: 10 },
      { path: 'web/package.json' },
      { path: 'web/node/deep/more/main.js', size: 4 },
      { path: 'web/lib/App.csproj' },
      { path: 'web/lib/Program.cs', size: 2 },
    ]);
    expect(map.packages.map((p) => [p.path, p.ecosystems, p.file_count, p.entry_points])).toEqual([
      ['.', ['python'], 2, ['pkg/__main__.py']],
      ['web', ['node'], 2, []],
      ['web/lib', ['dotnet'], 2, ['web/lib/Program.cs']],
    ]);
    expect(map).toMatchObject({ file_count: 6, total_bytes: 16, manifests: ['pyproject.toml', 'web/lib/App.csproj', 'web/package.json'] });
  });

  test('no manifest: one root package; repeated paths count once; unknown extensions have no language', () => {
    const map = mapCodebase([{ path: 'a.ts' }, { path: 'a.ts' }, { path: 'LICENSE' }, { path: 'b/c.bin' }]);
    expect(map.packages).toEqual([{ path: '.', ecosystems: [], manifests: [], entry_points: [], languages: [{ language: 'TypeScript', files: 1, bytes: 0 }], file_count: 3 }]);
  });
});
