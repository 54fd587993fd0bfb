using System.Runtime.Serialization;

namespace RpcCompare.Contracts;

/// <summary>
/// Why a call was refused. Every binding carries the code and message of a refusal, so a
/// client sees the same error whichever binding it used.
/// </summary>
[DataContract(Namespace = ServiceNames.Namespace)]
public enum RpcErrorCode : byte
{
    /// <summary>A request member is out of range or malformed.</summary>
    [EnumMember]
    InvalidArgument = 1,

    /// <summary>A path is absolute, climbs out of the data root, holds a NUL or is too long, or a symlink points out.</summary>
    [EnumMember]
    PathRefused = 2,

    /// <summary>The file or directory does not exist under the data root.</summary>
    [EnumMember]
    NotFound = 3,

    /// <summary>A message is larger than the binding's configured limit.</summary>
    [EnumMember]
    QuotaExceeded = 4,

    /// <summary>The service failed; the message says how.</summary>
    [EnumMember]
    Internal = 5,

    /// <summary>
    /// The caller is not one the host serves: a user not on its list on a Unix socket, or, under
    /// mutual TLS, no client certificate or one neither listed nor issued by its authority.
    /// </summary>
    [EnumMember]
    PermissionDenied = 6,
}
