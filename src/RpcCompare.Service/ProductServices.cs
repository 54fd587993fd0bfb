using RpcCompare.Contracts;

namespace RpcCompare.Service;

/// <summary>RpcCompare's own contracts by name, for a host told to serve only some of them (<c>--services</c>).</summary>
public static class ProductServices
{
    /// <summary>Every contract with its implementation, by the service's short name (the last part of its dotted name).</summary>
    public static IReadOnlyDictionary<string, (Type Contract, Type Implementation)> All { get; } =
        new Dictionary<string, (Type, Type)>(StringComparer.OrdinalIgnoreCase)
        {
            ["FileService"] = (typeof(IFileService), typeof(FileService)),
            ["CallShapeService"] = (typeof(ICallShapeService), typeof(CallShapeService)),
            ["PayloadService"] = (typeof(IPayloadService), typeof(PayloadService)),
            ["FileTransferService"] = (typeof(IFileTransferService), typeof(FileTransferService)),
        };

    /// <summary>
    /// The contracts a comma-separated list names ("all", "none" for a host serving only a team's
    /// contracts, or short names such as <c>FileService,PayloadService</c>, in any case), in the
    /// order of <see cref="All"/>. Throws <see cref="ArgumentException"/> naming an unknown one.
    /// </summary>
    public static IReadOnlyList<string> Parse(string? list)
    {
        var names = list?.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries) ?? [];
        if (names.Length == 0 || names.Any(n => n.Equals("all", StringComparison.OrdinalIgnoreCase)))
        {
            return [.. All.Keys];
        }

        if (names is [var only] && only.Equals("none", StringComparison.OrdinalIgnoreCase))
        {
            return [];
        }

        if (names.FirstOrDefault(n => !All.ContainsKey(n)) is { } unknown)
        {
            throw new ArgumentException($"Unknown service '{unknown}'; the services are {string.Join(", ", All.Keys)} (or all, or none).", nameof(list));
        }

        return [.. All.Keys.Where(k => names.Contains(k, StringComparer.OrdinalIgnoreCase))];
    }
}
