/* Meshes through assimp's C API, and Klampt's .tri by hand (it is two counted lists of
 * numbers). See mesh.h. */
#include "robot/mesh.h"
#include "core/module.h"
#include "io/input_file.h"

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <errno.h>
#include <pthread.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* assimp is loaded with the first mesh file (issue 21): it and the C++ runtime it needs cost
 * every other process its start-up. Its C API, three functions. */
static struct {
    const struct aiScene *(*import_file)(const char *, unsigned int);
    const char *(*error_string)(void);
    void (*release_import)(const struct aiScene *);
} assimp;
static pthread_once_t assimp_once = PTHREAD_ONCE_INIT;
static char assimp_why[512];

static void assimp_load(void)
{
    void *h = pb_module_open_system(PB_ASSIMP_SONAME, assimp_why, sizeof assimp_why);
    if (!h)
        return;
    assimp.import_file =
        (const struct aiScene *(*)(const char *, unsigned int))pb_module_symbol(h, "aiImportFile");
    assimp.error_string = (const char *(*)(void))pb_module_symbol(h, "aiGetErrorString");
    assimp.release_import = (void (*)(const struct aiScene *))pb_module_symbol(h, "aiReleaseImport");
    if (!assimp.import_file || !assimp.error_string || !assimp.release_import) {
        snprintf(assimp_why, sizeof assimp_why, "%s lacks aiImportFile, aiGetErrorString or aiReleaseImport",
                 PB_ASSIMP_SONAME);
        assimp.import_file = NULL;
    }
}

void pb_mesh_finish(pb_mesh *mesh)
{
    if (!mesh)
        return;
    free(mesh->vertices);
    free(mesh->triangles);
    memset(mesh, 0, sizeof *mesh);
}

static pb_status reserve(pb_mesh *mesh, size_t n_vertices, size_t n_triangles)
{
    if (n_triangles > PB_MESH_MAX_TRIANGLES || n_vertices > 3 * PB_MESH_MAX_TRIANGLES)
        return PB_ERR_INVALID;
    mesh->vertices = malloc((n_vertices ? n_vertices : 1) * 3 * sizeof(double));
    mesh->triangles = malloc((n_triangles ? n_triangles : 1) * 3 * sizeof(uint32_t));
    return mesh->vertices && mesh->triangles ? PB_OK : PB_ERR_NOMEM;
}

/* Klampt's .tri: "N", N vertices "x y z", "M", M triangles "a b c". */
static pb_status load_tri(pb_mesh *mesh, const char *path, pb_diag *diag)
{
    pb_status open_status = PB_ERR_IO;
    FILE *fp = pb_file_open_regular(path, diag, &open_status);
    if (!fp)
        return open_status;
    long nv = -1, nt = -1;
    pb_status st = PB_ERR_INVALID;
    if (fscanf(fp, "%ld", &nv) != 1 || nv < 3 || (size_t)nv > 3 * PB_MESH_MAX_TRIANGLES)
        goto bad;
    if ((st = reserve(mesh, (size_t)nv, 0)) != PB_OK)
        goto bad;
    for (long i = 0; i < 3 * nv; i++)
        if (fscanf(fp, "%lf", &mesh->vertices[i]) != 1 || !isfinite(mesh->vertices[i]))
            goto bad;
    if (fscanf(fp, "%ld", &nt) != 1 || nt < 1 || (size_t)nt > PB_MESH_MAX_TRIANGLES)
        goto bad;
    free(mesh->triangles);
    mesh->triangles = malloc((size_t)nt * 3 * sizeof(uint32_t));
    if (!mesh->triangles) {
        st = PB_ERR_NOMEM;
        goto bad;
    }
    for (long i = 0; i < 3 * nt; i++) {
        long index;
        if (fscanf(fp, "%ld", &index) != 1 || index < 0 || index >= nv)
            goto bad;
        mesh->triangles[i] = (uint32_t)index;
    }
    mesh->n_vertices = (size_t)nv;
    mesh->n_triangles = (size_t)nt;
    fclose(fp);
    return PB_OK;
bad:
    fclose(fp);
    pb_mesh_finish(mesh);
    pb_diag_set(diag, path, 0, 0,
                "not a Klampt .tri mesh (vertex count, vertices, triangle count, triangles)");
    return st == PB_ERR_NOMEM ? st : PB_ERR_INVALID;
}

typedef struct walk {
    const struct aiScene *scene;
    pb_mesh *mesh;
    size_t n_vertices, n_triangles;
    bool count_only;
} walk;

/* Visit node with the accumulated transform `m` (row-major 3x4). */
static void visit(walk *w, const struct aiNode *node, const double *m)
{
    const struct aiMatrix4x4 *t = &node->mTransformation;
    double own[12] = {t->a1, t->a2, t->a3, t->a4, t->b1, t->b2, t->b3, t->b4, t->c1, t->c2, t->c3, t->c4};
    double acc[12];
    if (node == w->scene->mRootNode) {
        memcpy(acc, m, sizeof acc);
    } else {
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 4; j++)
                acc[4 * i + j] = m[4 * i] * own[j] + m[4 * i + 1] * own[4 + j] + m[4 * i + 2] * own[8 + j];
            acc[4 * i + 3] += m[4 * i + 3];
        }
    }
    for (unsigned k = 0; k < node->mNumMeshes; k++) {
        if (node->mMeshes[k] >= w->scene->mNumMeshes)
            continue;
        const struct aiMesh *am = w->scene->mMeshes[node->mMeshes[k]];
        size_t n_tri = 0;
        for (unsigned f = 0; f < am->mNumFaces; f++)
            n_tri += am->mFaces[f].mNumIndices == 3;
        if (w->count_only) {
            w->n_vertices += am->mNumVertices;
            w->n_triangles += n_tri;
            continue;
        }
        const size_t base = w->n_vertices;
        for (unsigned v = 0; v < am->mNumVertices; v++) {
            const struct aiVector3D p = am->mVertices[v];
            double *out = w->mesh->vertices + 3 * (base + v);
            for (int i = 0; i < 3; i++)
                out[i] = acc[4 * i] * p.x + acc[4 * i + 1] * p.y + acc[4 * i + 2] * p.z + acc[4 * i + 3];
        }
        for (unsigned f = 0; f < am->mNumFaces; f++) {
            const struct aiFace *face = &am->mFaces[f];
            if (face->mNumIndices != 3)
                continue;
            uint32_t *tri = w->mesh->triangles + 3 * w->n_triangles++;
            for (int i = 0; i < 3; i++)
                tri[i] = (uint32_t)(base + (face->mIndices[i] < am->mNumVertices ? face->mIndices[i] : 0));
        }
        w->n_vertices += am->mNumVertices;
    }
    for (unsigned c = 0; c < node->mNumChildren; c++)
        visit(w, node->mChildren[c], acc);
}

pb_status pb_mesh_load(pb_mesh *mesh, const char *path, const double *scale, pb_diag *diag)
{
    memset(mesh, 0, sizeof *mesh);
    /* assimp opens the file itself: a FIFO or a device would block it */
    const pb_status regular = pb_file_check_regular(path, diag);
    if (regular != PB_OK)
        return regular;
    const size_t len = strlen(path);
    pb_status st;
    if (len > 4 && strcasecmp(path + len - 4, ".tri") == 0) {
        st = load_tri(mesh, path, diag);
    } else {
        pthread_once(&assimp_once, assimp_load);
        if (!assimp.import_file) {
            pb_diag_set(diag, path, 0, 0, "meshes other than .tri need assimp: %s", assimp_why);
            return PB_ERR_UNSUPPORTED;
        }
        const struct aiScene *scene = assimp.import_file(
            path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType);
        if (!scene || !scene->mRootNode) {
            pb_diag_set(diag, path, 0, 0, "not a mesh assimp can read: %s", assimp.error_string());
            if (scene)
                assimp.release_import(scene);
            return PB_ERR_INVALID;
        }
        /* Keep the root's uniform scale (a Collada unit), drop its rotation (see mesh.h). */
        const struct aiMatrix4x4 *r = &scene->mRootNode->mTransformation;
        const double det = r->a1 * (r->b2 * r->c3 - r->b3 * r->c2) - r->a2 * (r->b1 * r->c3 - r->b3 * r->c1) +
                           r->a3 * (r->b1 * r->c2 - r->b2 * r->c1);
        double unit = cbrt(fabs(det));
        if (!(unit > 0.0) || !isfinite(unit))
            unit = 1.0;
        const double m[12] = {unit, 0, 0, 0, 0, unit, 0, 0, 0, 0, unit, 0};
        walk w = {.scene = scene, .mesh = mesh, .count_only = true};
        visit(&w, scene->mRootNode, m);
        if (w.n_triangles == 0) {
            assimp.release_import(scene);
            pb_diag_set(diag, path, 0, 0, "the mesh holds no triangle");
            return PB_ERR_INVALID;
        }
        st = reserve(mesh, w.n_vertices, w.n_triangles);
        if (st == PB_OK) {
            w.count_only = false;
            w.n_vertices = w.n_triangles = 0;
            visit(&w, scene->mRootNode, m);
            mesh->n_vertices = w.n_vertices;
            mesh->n_triangles = w.n_triangles;
        } else {
            pb_mesh_finish(mesh);
            pb_diag_set(diag, path, 0, 0, st == PB_ERR_NOMEM ? "out of memory" : "the mesh is too large");
        }
        assimp.release_import(scene);
    }
    if (st == PB_OK && scale)
        for (size_t i = 0; i < mesh->n_vertices; i++)
            for (int k = 0; k < 3; k++)
                mesh->vertices[3 * i + k] *= scale[k];
    return st;
}
