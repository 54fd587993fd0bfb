using System.Reflection;
using System.Runtime.Loader;

namespace RpcCompare.Bindings.ContractAssemblies;

/// <summary>
/// Where a team's assembly and its own dependencies are loaded, the documented plugin way: an
/// assembly the process already ships is the process's own (the framework, System.ServiceModel,
/// protobuf-net, RpcCompare.Workloads), so the contract's attributes and the workload interface
/// are the very types the contract model and the runner look for; anything else comes from the
/// team's folder, resolved through its .deps.json when there is one.
/// </summary>
internal sealed class ContractAssemblyLoadContext : AssemblyLoadContext
{
    // The trusted platform assemblies: the runtime's, and every assembly of the application itself.
    private static readonly HashSet<string> s_processAssemblies = ((AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES") as string) ?? "")
        .Split(System.IO.Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
        .Select(System.IO.Path.GetFileNameWithoutExtension)
        .OfType<string>()
        .ToHashSet(StringComparer.OrdinalIgnoreCase);

    private readonly AssemblyDependencyResolver _resolver;
    private readonly string _directory;

    public ContractAssemblyLoadContext(string assemblyPath)
        : base($"contracts: {System.IO.Path.GetFileName(assemblyPath)}")
    {
        _resolver = new AssemblyDependencyResolver(assemblyPath);
        _directory = System.IO.Path.GetDirectoryName(assemblyPath)!;
    }

    protected override Assembly? Load(AssemblyName assemblyName)
    {
        if (assemblyName.Name is not { } name || s_processAssemblies.Contains(name))
        {
            return null; // The process's own copy, from the default context.
        }

        var path = _resolver.ResolveAssemblyToPath(assemblyName) ?? System.IO.Path.Combine(_directory, name + ".dll");
        return File.Exists(path) ? LoadFromAssemblyPath(path) : null;
    }

    protected override IntPtr LoadUnmanagedDll(string unmanagedDllName) =>
        _resolver.ResolveUnmanagedDllToPath(unmanagedDllName) is { } path ? LoadUnmanagedDllFromPath(path) : IntPtr.Zero;
}
