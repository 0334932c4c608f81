/* The RTI entity model over rosbridge (rti.c, private to src/sim; issue 20, docs/sim.md
 * "Entity channels"): entity metadata on /rti/entity, operations on /rti/entities, positions on
 * /rti/position and vehicle states on /rti/vehiclestate, with ownership arbitrated here: every
 * entity has one owner (a client id, or the server), and only its owner's commands move it.
 *
 * Positions are published by dead reckoning: the server extrapolates each entity's last
 * published position as a receiver would (constant body-frame velocity and acceleration from
 * the published heading, the heading at the constant yaw rate) and publishes again when that
 * would be off the true pose by more than the tolerance, or when the heartbeat is due. */
#ifndef PB_SIM_RTI_H
#define PB_SIM_RTI_H

#include "planbench/sim.h"
#include "topics.h"

#include <jansson.h>

/** The server's own owner id: entities of the world file, and spawned ones nobody claimed. */
#define RTI_SERVER "server"
/** Longest client id. */
#define RTI_CLIENT_ID_SIZE 32

typedef struct rti_config {
    double position_tolerance;  /**< world units (default 0.01: 1 cm on a metric map) */
    double angle_tolerance;     /**< radians (default 0.5 degrees) */
    double heartbeat;           /**< sim seconds between positions of an entity at most (default 1) */
    double vehiclestate_period; /**< sim seconds between a vehicle's states (default 0.1) */
    bool ownership;             /**< arbitrate (false: anybody commands anything, as before) */
} rti_config;

rti_config rti_config_default(void);

/** What the channels need of the transport. */
typedef struct rti_io {
    pb_sim *sim;
    /** Send `text` (taken) on channel `topic` to its subscribers; `entity` names what the message
     * is about (per-subscriber throttling keeps the latest per entity). `to` NULL: every
     * subscriber; else only the connection of that client. */
    void (*publish)(void *io, rb_topic topic, const char *entity, const char *to, char *text);
    /** Is `client` a connected client's id? */
    bool (*client_exists)(void *io, const char *client);
    void *io;
} rti_io;

typedef struct rti rti;

rti *rti_create(const rti_io *io, const rti_config *config);
void rti_destroy(rti *r);

/** An entity's life-cycle event (drained from the simulation): CREATED publishes its Entity
 * (with its position) before any position, owned by `owner` (a client that spawned it) or the
 * server (NULL); INFO_CHANGED its new metadata; DELETED its last message. */
void rti_on_event(rti *r, pb_sim_event_kind kind, const char *entity, const char *owner);
/** The world was loaded, unloaded or reset (the simulation does not report those entities'
 * events): every entity tracked so far is deleted (its last message), and every entity now is
 * created, owned by the server. */
void rti_world_changed(rti *r);
/** After a step: the positions dead reckoning calls for, the vehicle states due. */
void rti_on_step(rti *r);

/** Every entity's Entity and position, now, to client `to` (NULL: every subscriber). */
void rti_publish_all(rti *r, const char *to);

/** May `client` command `entity` (move it, set its state, delete it)? False with `why` naming
 * the owner. Unknown entities are left to the simulation (true). */
bool rti_may_command(const rti *r, const char *entity, const char *client, char *why, size_t size);

/** An operation message on /rti/entities from `client` (planbench_interfaces/EntityOperation:
 * request_update, transfer_ownership, assume_ownership (claim_ownership the same),
 * release_ownership): applied and its
 * Entity published, or false with `err` naming what was wrong (no change). */
bool rti_operation(rti *r, const char *client, const json_t *msg, char *err, size_t size);

/** A position published on /rti/position by `client` (an EntityPosition): the entity is moved
 * there (its pose, and its twist from the body-frame velocity and the yaw rate), as
 * SetEntityState moves it; false with `err` naming what was wrong (not the owner, an unknown
 * id, a malformed message, a pose the simulation refuses): nothing changes. */
bool rti_position(rti *r, const char *client, const json_t *msg, char *err, size_t size);

/** `client` disconnected: its entities are released to the server, each saying so. */
void rti_client_gone(rti *r, const char *client);

#endif
