/* fixptx.c: oxidec's PTX rewrites (src/emit/ptxfix.c, then
 * src/emit/ptxcalls.c, as emit_ptx runs them) as a filter,
 *   fixptx IN.ptx OUT.ptx
 * so that the hazard probe also runs LLVM's PTX after oxidec's rewrites. */
#include <stdio.h>
#include <stdlib.h>

char *emit_fix_ptx(char *ptx, size_t *len);
char *emit_redirect_recursion(char *ptx, size_t *len);

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: fixptx IN.ptx OUT.ptx\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f || fseek(f, 0, SEEK_END))
		return 2;
	long n = ftell(f);
	rewind(f);
	char *s = malloc((size_t)n + 1);
	if (!s || fread(s, 1, (size_t)n, f) != (size_t)n)
		return 2;
	s[n] = 0;
	fclose(f);
	size_t len;
	char *out = emit_redirect_recursion(emit_fix_ptx(s, &len), &len);
	FILE *o = fopen(argv[2], "wb");
	if (!o || fwrite(out, 1, len, o) != len || fclose(o))
		return 2;
	return 0;
}
