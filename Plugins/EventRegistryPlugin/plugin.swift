import Foundation
import PackagePlugin

/// Generates `InspectionEvent` (its cases, `payload` and the registry entries) from the event
/// payload types in the target's `Events` folder, on every build (see EventRegistryGenerator).
@main
struct EventRegistryPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let inputs = target.sourceFiles(withSuffix: "swift").map(\.url)
            .filter { $0.deletingLastPathComponent().lastPathComponent == "Events" }
            .sorted { $0.path < $1.path }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("InspectionEvent+Generated.swift")
        return [
            .buildCommand(
                displayName: "Generating InspectionEvent from \(inputs.count) event files of \(target.name)",
                executable: try context.tool(named: "EventRegistryGenerator").url,
                arguments: [output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
