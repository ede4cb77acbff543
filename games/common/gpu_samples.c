/* One static program holding every GPU sample title: each title's main.c is compiled with -Dmain=<title>_main
 * (sample_triangle_main, sample_scene_main; sample-scene a second time for the Ampere classes with
 * -DSCENE_FAMILY=KG_AMPERE as sample_scene_ampere_main) and linked with this dispatcher, so one recompile of the static
 * glibc they share (`kiln port`, the costly part) serves them all. Usage: gpu-samples TITLE [FRAME_DIR]. Each
 * main.c also builds on its own as a program of one title. */
#include <stdio.h>
#include <string.h>

int sample_triangle_main(int argc, char **argv);
int sample_scene_main(int argc, char **argv);
int sample_scene_ampere_main(int argc, char **argv);

int main(int argc, char **argv) {
  static const struct {
    const char *name;
    int (*main)(int, char **);
  } titles[] = {{"sample-triangle", sample_triangle_main}, {"sample-scene", sample_scene_main},
                {"sample-scene-ampere", sample_scene_ampere_main}};
  for (size_t i = 0; argc > 1 && i < sizeof titles / sizeof titles[0]; ++i)
    if (strcmp(argv[1], titles[i].name) == 0) return titles[i].main(argc - 1, argv + 1); /* argv[0] = the title */
  fprintf(stderr, "usage: %s sample-triangle|sample-scene|sample-scene-ampere [FRAME_DIR]\n", argc > 0 ? argv[0] : "gpu-samples");
  return 2;
}
