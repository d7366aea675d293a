// SPDX-License-Identifier: GPL-2.0
/*
 * Runs a libFuzzer target's inputs without libFuzzer: `replay FILE...`
 * feeds each file to LLVMFuzzerTestOneInput once (built with gcc, plain and
 * ASan+UBSan, so make check replays the kept inputs of fuzz-records.c).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	int i, done = 0;

	LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf = NULL;
		long n;

		if (!f && errno == ENOENT) {
			/* a fuzzer running beside us replaced it in the corpus */
			fprintf(stderr, "replay: %s is gone, skipped\n", argv[i]);
			continue;
		}
		if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
			fprintf(stderr, "replay: cannot read %s\n", argv[i]);
			return 1;
		}
		buf = malloc((size_t)n + 1);
		if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
			fprintf(stderr, "replay: cannot read %s\n", argv[i]);
			return 1;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, (size_t)n);
		free(buf);
		done++;
	}
	printf("replayed %d inputs\n", done);
	return 0;
}
