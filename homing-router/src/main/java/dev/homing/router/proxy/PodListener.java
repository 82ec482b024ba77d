package dev.homing.router.proxy;

import io.netty.handler.codec.http.HttpObject;

/** Who a pod connection's messages go to while it carries an exchange; called on the connection's event loop. */
interface PodListener {

    /** A part of the response: its head, a piece of its body, its end. Not to be released here: retain what is kept. */
    void podMessage(HttpObject message);

    /** The connection failed or closed; {@code cause} null for a plain close. */
    void podGone(Throwable cause);
}
