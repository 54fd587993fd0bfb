using System.Globalization;
using RpcCompare.Bindings.Limits;

namespace RpcCompare.Bindings.Security;

/// <summary>
/// Which users may connect to the host's Unix sockets (wcf-uds, grpc-uds, pipes): each connection's
/// peer user id (SO_PEERCRED) must be on the list, else it is closed at once and counted as
/// unauthorized, naming the uid, in the binding's summary line. The socket directory's 0700 mode
/// already keeps other users out; this holds when a socket is shared on purpose (a volume, a
/// directory of wider mode) and says who was refused.
/// </summary>
public sealed class UnixPeerPolicy
{
    private readonly HashSet<uint>? _allowed;

    private UnixPeerPolicy(HashSet<uint>? allowed)
    {
        _allowed = allowed;
    }

    /// <summary>
    /// The default: this process's own user, and root (who can read the host's memory anyway, so
    /// refusing it would protect nothing and break tools run with sudo).
    /// </summary>
    public static UnixPeerPolicy OwnUser { get; } = new([PeerCredentials.CurrentUserId, 0]);

    /// <summary>Every user: the check is off.</summary>
    public static UnixPeerPolicy AnyUser { get; } = new(null);

    /// <summary>What the policy allows, for the log: "users 0, 1000" or "any user".</summary>
    public string Description => _allowed is null ? "any user" : "users " + string.Join(", ", _allowed.Order());

    /// <summary>
    /// Parses the setting: comma-separated user ids, "any" for every user, or empty for <see cref="OwnUser"/>;
    /// throws naming <paramref name="setting"/> for anything else.
    /// </summary>
    public static UnixPeerPolicy Parse(string? value, string setting)
    {
        if (string.IsNullOrWhiteSpace(value))
        {
            return OwnUser;
        }

        if (value.Trim().Equals("any", StringComparison.OrdinalIgnoreCase))
        {
            return AnyUser;
        }

        var allowed = new HashSet<uint>();
        foreach (var item in value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            allowed.Add(uint.TryParse(item, NumberStyles.None, CultureInfo.InvariantCulture, out var uid)
                ? uid
                : throw new ArgumentException($"{setting} takes user ids (numbers) separated by commas, or \"any\"; got '{item}'."));
        }

        return new UnixPeerPolicy(allowed);
    }

    /// <summary>Whether a peer may be served; one whose credentials cannot be read is, where nothing can be checked (off Linux).</summary>
    public bool Allows(PeerCredentials? peer) => _allowed is null || peer is not { } known || _allowed.Contains(known.UserId);

    /// <summary>
    /// Checks the peer of a Unix socket connection: null when it may be served; else counts the
    /// refusal in <paramref name="incidents"/> with its uid and returns what to tell the client.
    /// </summary>
    public string? Refuse(PeerCredentials? peer, ConnectionIncidents incidents)
    {
        ArgumentNullException.ThrowIfNull(incidents);
        if (Allows(peer))
        {
            return null;
        }

        var uid = peer!.Value.UserId;
        incidents.Add(ConnectionIncident.Unauthorized, string.Create(CultureInfo.InvariantCulture, $"uid {uid}"));
        // The allow-list itself is not told to a user the host does not serve.
        return string.Create(CultureInfo.InvariantCulture, $"This host does not serve user {uid} on its Unix sockets (the host's --allowed-users).");
    }
}
